import Bearer
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Does in tests what a user's browser does: signs in with the login form, shows the consent page
/// and submits it, and hands back the redirect the server sends to the app.
actor Browser {
    private let transport = URLSessionTransport()
    private var cookies: [String: String] = [:]

    /// Signs in with the login form, as a user would.
    func signIn(username: String = "alice", password: String = "alice-test-password") async throws {
        let loginURL = try TestServer.url("/accounts/login/")
        let (page, _) = try await get(loginURL)
        let fields = Self.hiddenFields(in: page)
        let (_, response) = try await post(
            loginURL,
            form: [
                ("csrfmiddlewaretoken", try #require(fields["csrfmiddlewaretoken"])),
                ("username", username),
                ("password", password),
                ("next", "/"),
            ]
        )
        #expect(response.statusCode == 302, "the login form accepted the test user")
        #expect(cookies["sessionid"] != nil)
    }

    /// Opens the authorization URL, answers the consent page if one is shown, and returns the URL
    /// the server redirects to.
    func authorize(_ url: URL, allow: Bool = true) async throws -> URL {
        let (page, response) = try await get(url)
        if response.statusCode == 302 {
            return try location(of: response, relativeTo: url)
        }
        #expect(response.statusCode == 200, "the consent page is shown")
        var form = Self.hiddenFields(in: page).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        if allow { form.append(("allow", "Authorize")) }
        let (_, consent) = try await post(url, form: form)
        #expect(consent.statusCode == 302, "the consent form redirects")
        return try location(of: consent, relativeTo: url)
    }

    func get(_ url: URL) async throws -> (String, HTTPURLResponse) {
        try await send(URLRequest(url: url))
    }

    func post(_ url: URL, form: [(String, String)]) async throws -> (String, HTTPURLResponse) {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(FormEncoding.encode(form.map { (name: $0.0, value: $0.1) }).utf8)
        return try await send(request)
    }

    private func send(_ request: URLRequest) async throws -> (String, HTTPURLResponse) {
        var request = request
        if !cookies.isEmpty {
            let header = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            request.setValue(header, forHTTPHeaderField: "Cookie")
        }
        let (data, response) = try await transport.send(request)
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        if let url = request.url {
            for cookie in HTTPCookie.cookies(withResponseHeaderFields: headers, for: url) {
                cookies[cookie.name] = cookie.value
            }
        }
        return (String(decoding: data, as: UTF8.self), response)
    }

    private func location(of response: HTTPURLResponse, relativeTo base: URL) throws -> URL {
        let location = try #require(response.value(forHTTPHeaderField: "Location"), "a redirect has a Location")
        return try #require(URL(string: location, relativeTo: base)?.absoluteURL)
    }

    /// The hidden inputs of the page's forms, by name, HTML entities decoded.
    static func hiddenFields(in page: String) -> [String: String] {
        var fields: [String: String] = [:]
        for match in page.matches(of: /<input[^>]*>/) {
            let tag = String(match.output)
            guard tag.contains(#"type="hidden""#),
                let name = tag.firstMatch(of: /name="([^"]*)"/)?.output.1
            else { continue }
            let value = tag.firstMatch(of: /value="([^"]*)"/)?.output.1 ?? ""
            fields[unescape(String(name))] = unescape(String(value))
        }
        return fields
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#x27;", with: "'")
            .replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}

extension Browser {
    /// Signs alice in, approves consent if asked, follows the redirect (to bearer's listener) and
    /// returns the page the listener answers with.
    func authorizeAsAlice(_ authorizeURL: String) async throws -> String {
        try await signIn()
        let redirect = try await authorize(try #require(URL(string: authorizeURL)))
        let (page, response) = try await get(redirect)
        #expect(response.statusCode == 200)
        return page
    }

    /// Signs alice in and approves (or denies) a device code with the server's forms.
    func approveDevice(userCode: String, approve: Bool) async throws {
        try await signIn()
        var components = try #require(
            URLComponents(url: try TestServer.url("/o/device/"), resolvingAgainstBaseURL: false))
        components.queryItems = [URLQueryItem(name: "user_code", value: userCode)]
        let deviceURL = try #require(components.url)
        let (page, _) = try await get(deviceURL)
        let fields = Self.hiddenFields(in: page)
        let (_, entered) = try await post(
            try TestServer.url("/o/device/"),
            form: [("csrfmiddlewaretoken", try #require(fields["csrfmiddlewaretoken"])), ("user_code", userCode)]
        )
        #expect(entered.statusCode == 302, "the user code is accepted")
        let location = try #require(entered.value(forHTTPHeaderField: "Location"))
        let base = try TestServer.url("/")
        let confirm = try #require(URL(string: location, relativeTo: base)?.absoluteURL)
        let (confirmPage, _) = try await get(confirm)
        let confirmFields = Self.hiddenFields(in: confirmPage)
        let (_, decided) = try await post(
            confirm,
            form: [
                ("csrfmiddlewaretoken", try #require(confirmFields["csrfmiddlewaretoken"])),
                ("action", approve ? "accept" : "deny"),
            ]
        )
        #expect(decided.statusCode == 302, "the decision is accepted")
    }
}
