#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension AuthState {
    /// The signed-in user, as the ID token (or the UserInfo endpoint) describes them: the profile
    /// an app shows, like GoogleSignIn's `GIDProfileData`.
    ///
    /// ```swift
    /// if let user = await session.user {
    ///     greeting = "Hello, \(user.givenName ?? user.name ?? user.email ?? "there")"
    ///     avatar = user.pictureURL(size: 100)
    /// }
    /// ```
    ///
    /// Any other claim of the ID token is in ``AuthState/idToken``'s claims:
    /// `state.idToken?.claims["locale"]`.
    public struct User: Sendable, Hashable, Codable {
        /// The stable subject identifier (`sub`); empty when a migrated session did not record it.
        public var subject: String
        /// The email address, if the `email` scope was granted.
        public var email: String?
        /// Whether the email address is verified.
        public var emailVerified: Bool?
        /// The full name, if the `profile` scope was granted.
        public var name: String?
        /// The given (first) name (`given_name`), if the `profile` scope was granted.
        public var givenName: String?
        /// The family (last) name (`family_name`), if the `profile` scope was granted.
        public var familyName: String?
        /// The profile picture's address (`picture`), at the size the server chose; see
        /// ``pictureURL(size:)`` for another size.
        public var picture: URL?
        /// The Google Workspace domain of the account (`hd`); `nil` for a consumer account.
        public var hostedDomain: String?

        /// Creates a user.
        ///
        /// - Parameters:
        ///   - subject: The `sub` claim.
        ///   - email: The `email` claim.
        ///   - emailVerified: The `email_verified` claim.
        ///   - name: The `name` claim.
        ///   - givenName: The `given_name` claim.
        ///   - familyName: The `family_name` claim.
        ///   - picture: The `picture` claim.
        ///   - hostedDomain: The `hd` claim.
        public init(
            subject: String,
            email: String? = nil,
            emailVerified: Bool? = nil,
            name: String? = nil,
            givenName: String? = nil,
            familyName: String? = nil,
            picture: URL? = nil,
            hostedDomain: String? = nil
        ) {
            self.subject = subject
            self.email = email
            self.emailVerified = emailVerified
            self.name = name
            self.givenName = givenName
            self.familyName = familyName
            self.picture = picture
            self.hostedDomain = hostedDomain
        }

        init(claims: IDTokenClaims) {
            self.init(
                subject: claims.subject,
                email: claims.email,
                emailVerified: claims.emailVerified,
                name: claims.name,
                givenName: claims.givenName,
                familyName: claims.familyName,
                picture: claims.picture,
                hostedDomain: claims.hostedDomain
            )
        }

        /// The profile picture at `size` pixels square, as GoogleSignIn's
        /// `imageURL(withDimension:)` gives it.
        ///
        /// Google's picture addresses (`*.googleusercontent.com`) take the size as a directive:
        /// `…/photo=s96-c` becomes `…/photo=c-s200`, and an address of the older form
        /// (`…/s96-c/photo.jpg`) gets a `s200-c` folder. Other servers' pictures have no size to
        /// choose, so the address comes back as it is.
        ///
        /// - Parameter size: The width and height wanted, in pixels.
        /// - Returns: The address, or `nil` when the user has no picture.
        public func pictureURL(size: Int) -> URL? {
            guard let picture else { return nil }
            return ProfilePicture.sized(picture, size: max(1, size))
        }
    }
}
