/// Signs compact JWSs (RFC 7515 §7.1) with ES256 keys: DPoP proofs, and every other token Bearer
/// signs, go through here.
enum JWSSigning {
    /// `encodedHeader.payload.signature`, signed by `key`.
    ///
    /// - Parameters:
    ///   - encodedHeader: The protected header, already base64url-encoded.
    ///   - payload: The payload's JSON.
    ///   - key: The ES256 key.
    ///   - purpose: What is signed, for errors ("a DPoP proof").
    /// - Returns: The compact JWS.
    /// - Throws: ``BearerError/Kind/proofOfPossession`` when the key cannot sign or returns
    ///   something other than a 64-byte signature.
    static func compact(
        encodedHeader: String, payload: String, signedBy key: any DPoPKey, purpose: String
    ) async throws -> String {
        let input = encodedHeader + "." + Base64URL.encode(payload.utf8)
        let signature: [UInt8]
        do {
            signature = try await key.signature(for: Array(input.utf8))
        } catch let error as BearerError {
            throw error
        } catch {
            throw BearerError.proofOfPossession(
                "The key could not sign \(purpose) (\(type(of: error))); the request was not sent.",
                underlyingError: error)
        }
        guard signature.count == 64 else {
            throw BearerError.proofOfPossession(
                "The key returned a \(signature.count)-byte signature for \(purpose); ES256 signatures are r‖s, "
                    + "64 bytes (RFC 7518 §3.4). The request was not sent.")
        }
        return input + "." + Base64URL.encode(signature)
    }
}
