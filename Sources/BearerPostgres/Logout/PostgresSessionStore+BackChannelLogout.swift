public import BearerCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension PostgresSessionStore: BackChannelLogoutStore {
    /// Ends every session `token` names, at every instance of the fleet, in one statement: the
    /// token's issuer and `jti` are recorded in the `_logout_tokens` table (until it expires), and
    /// unless they were there already, every row of its issuer and one of its audience's clients
    /// in the provider session it names (or of the user it names) is marked `ended_at`. An ended
    /// row reads as needing a new sign-in on every instance from then on; its tokens are kept, so
    /// a disconnect still revokes them. A refresh that was under way when the token came saves its
    /// tokens and stays ended; a new sign-in under the key replaces the session.
    ///
    /// - Parameter token: A verified logout token.
    /// - Returns: How many sessions ended, or ``LogoutEnding/replayed`` when any instance accepted the
    ///   same token before.
    /// - Throws: ``PostgresSessionStoreError``; nothing was recorded or ended then.
    public func endSessions(namedBy token: LogoutToken) async throws -> LogoutEnding {
        guard let logoutTable = tableName.suffixed(Self.logoutTokensTableSuffix) else {
            throw PostgresSessionStoreError.invalidConfiguration(
                "The table name \(table) is too long for its logout tokens table (the name followed by "
                    + "\(Self.logoutTokensTableSuffix) must fit in 63 bytes); choose a shorter table name.")
        }
        let statement = Self.endSessionsStatement(
            sessions: tableName.sql, logoutTokens: logoutTable.sql, namingSession: token.sessionID != nil)
        let audience = String(decoding: try JSONEncoder().encode(token.audience), as: UTF8.self)
        // Remembered as long as a check would still accept the token.
        let forgetAt = token.rememberedUntil.timeIntervalSince1970
        let parameters: [PostgresConnection.Parameter] = [
            .text(token.issuer), .text(token.tokenID), .text(String(forgetAt)), .text(audience),
            .text(token.sessionID ?? ""), .text(token.subject ?? ""),
        ]
        let row = try await run(stoppingOnCancellation: true) { connection in
            try connection.execute(statement, parameters).first
        }
        guard let row, row.count == 2, let accepted = row[0], let count = row[1] else {
            throw PostgresSessionStoreError.unsupportedSchema(
                "The logout statement answered no row; run prepareSchema() so the table has version "
                    + "\(Self.schemaVersion).")
        }
        guard accepted.first == 1 else { return .replayed }
        return .ended(sessions: Int(String(decoding: count, as: UTF8.self)) ?? 0)
    }

    /// Records token `$1`/`$2` until `$3` (seconds since 1970) unless recorded, and only then ends the
    /// rows of issuer `$1` (or its spelling with `https://`, Google's) whose client is in the JSON
    /// array `$4`: with `namingSession`, those in provider session `$5` (and of user `$6` unless it is
    /// empty); otherwise those of user `$6`. Each is one equality on an index. Sweeps tokens an hour
    /// past their time, so that the database's clock may differ from the app's. Answers whether the
    /// token was new, and how many rows it ended, as text.
    static func endSessionsStatement(sessions: String, logoutTokens: String, namingSession: Bool) -> String {
        let named =
            namingSession
            ? "provider_session = $5::text AND ($6::text = '' OR subject = $6::text)"
            : "subject = $6::text AND $5::text = ''"
        return """
            WITH swept AS (DELETE FROM \(logoutTokens) WHERE expires_at < now() - interval '1 hour'),
            fresh AS (
                INSERT INTO \(logoutTokens) (issuer, jti, expires_at)
                VALUES ($1::text, $2::text, to_timestamp($3::text::double precision))
                ON CONFLICT (issuer, jti) DO NOTHING RETURNING 1),
            ended AS (
                UPDATE \(sessions) SET ended_at = coalesce(ended_at, now())
                WHERE EXISTS (SELECT 1 FROM fresh)
                    AND (issuer = $1::text OR issuer = 'https://' || $1::text)
                    AND client_id IN (SELECT jsonb_array_elements_text($4::text::jsonb))
                    AND \(named)
                RETURNING 1)
            SELECT EXISTS (SELECT 1 FROM fresh), (SELECT count(*) FROM ended)::text
            """
    }
}
