import Testing

/// Suites that never stop, crash or restart their server share one (nested in this suite), so
/// that a full test run starts fewer PostgreSQL servers on a machine the end-to-end servers share.
@Suite(
    "PostgresSessionStore: suites sharing one server", .postgresServer,
    .enabled(if: PostgresTestServer.isInstalled, PostgresTestServer.skipReason))
enum SharedPostgresServer {}
