#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A user's private group: under a umask of 002 (Ubuntu's and Fedora's default, which give every
/// user a group of their own), a checkout and its build folder are writable by the group, and
/// that group is the user's alone. A group counts as the user's private group when the group
/// database names it after the user and lists no other member.
extension FullTool {
    /// A group as the group database describes it.
    package struct GroupEntry: Sendable, Equatable {
        /// The group's name.
        package let name: String
        /// The user names the database lists as members (not the users whose primary group it is).
        package let members: [String]

        /// Describes a group.
        package init(name: String, members: [String]) {
            self.name = name
            self.members = members
        }

        /// Whether this is the private group of the user named `user`: named after the user, with
        /// no member but the user.
        package func isPrivateGroup(of user: String) -> Bool {
            !user.isEmpty && name == user && members.allSatisfy { $0 == user }
        }
    }

    /// Whether `group` is the private group of `user`, per the user and group databases.
    ///
    /// - Parameters:
    ///   - group: A group ID.
    ///   - user: A user ID.
    /// - Returns: `false` when either database does not know the ID.
    package static func isPrivateGroup(_ group: UInt32, of user: UInt32) -> Bool {
        guard let name = userName(of: user), let entry = groupEntry(of: group) else { return false }
        return entry.isPrivateGroup(of: name)
    }

    /// The name of `user` in the user database.
    package static func userName(of user: UInt32) -> String? {
        withRecordBuffer { buffer, size in
            var entry = passwd()
            var found: UnsafeMutablePointer<passwd>?
            let status = getpwuid_r(uid_t(user), &entry, buffer, size, &found)
            guard status == 0 else { return .retry(status) }
            guard found != nil, let name = entry.pw_name else { return .done(nil) }
            return .done(String(cString: name))
        }
    }

    /// The name and listed members of the group `id` in the group database.
    package static func groupEntry(of id: UInt32) -> GroupEntry? {
        withRecordBuffer { buffer, size in
            var entry = group()
            var found: UnsafeMutablePointer<group>?
            let status = getgrgid_r(gid_t(id), &entry, buffer, size, &found)
            guard status == 0 else { return .retry(status) }
            guard found != nil, let name = entry.gr_name else { return .done(nil) }
            var members: [String] = []
            if var member = entry.gr_mem {
                while let word = member.pointee {
                    members.append(String(cString: word))
                    member += 1
                }
            }
            return .done(GroupEntry(name: String(cString: name), members: members))
        }
    }

    /// What one look-up in a buffer gave: an answer, or an `errno` value (`ERANGE` asks for a
    /// larger buffer).
    private enum Lookup<Value> {
        case done(Value?)
        case retry(Int32)
    }

    /// Runs `body` with a buffer for a database record, doubling it up to 1 MiB while the record
    /// does not fit.
    private static func withRecordBuffer<Value>(
        _ body: (UnsafeMutablePointer<CChar>, Int) -> Lookup<Value>
    ) -> Value? {
        var size = 16_384
        while size <= 1 << 20 {
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
            defer { buffer.deallocate() }
            switch body(buffer, size) {
            case .done(let value): return value
            case .retry(let status) where status == ERANGE: size *= 2
            case .retry: return nil
            }
        }
        return nil
    }
}
