// libFuzzer target: what a protected resource and an authorization server send a resource-first
// sign-in: RFC 9728 metadata, a challenge's resource_metadata, RFC 7591 registration answers, and
// resource URIs.
import Bearer
import Foundation

@_spi(CommandLine) @testable import BearerCore

/// The resource the documents are read for.
private let expected = try? ProtectedResource(URL(knownValid: "https://mcp.example.com/mcp"))
/// The redirect URI a registration answer is read for.
private let redirect = URL(knownValid: "http://127.0.0.1:8765/callback")

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(UnsafeRawBufferPointer(start: start, count: count))
    let text = String(decoding: data, as: UTF8.self)
    if let expected {
        _ = try? ProtectedResourceMetadata(document: data, describing: expected, allowingInsecureLoopback: true)
        _ = URL(string: text).map(expected.covers)
    }
    _ = BearerChallenge(header: text)?.resourceMetadata
    _ = try? ClientRegistration.client(from: data, redirectURI: redirect)
    if let url = URL(string: text), let resource = try? ProtectedResource(url, allowingInsecureLoopback: true) {
        _ = resource.metadataURLs
        // Every key names a file the file store accepts, whatever the URLs.
        for key in [ResourceSessionKeys.session(for: resource, issuer: url), ResourceSessionKeys.registration(at: url)]
        {
            precondition((try? FileSessionStore.checkKey(key)) != nil, "a resource key the file store refuses")
        }
    }
    return 0
}
