import Bearer
import BearerPostgres
import BearerTestSupport
import BearerTesting
import Foundation
import Testing

extension SharedPostgresServer {
    /// The PostgreSQL store keeps `SessionStore`'s contract, checked by the kit an app's own store
    /// uses; two stores with pools of their own on one table stand for two machines.
    @Suite(
        "SessionStoreConformance: PostgresSessionStore",
        .enabled(if: PostgresTestServer.isInstalled, PostgresTestServer.skipReason))
    struct PostgresConformanceTests {
        @Test("PostgresSessionStore, across two stores on one table")
        func postgres() async throws {
            let table = StoreFixtures.uniqueTable()
            try await SessionStoreConformance(sharedAcrossInstances: true) {
                try await StoreFixtures.store(table: table)
            }.verify()
        }

        @Test("BackChannelLogoutConformance: PostgresSessionStore, a replay tried at a second store on the table")
        func logout() async throws {
            let table = StoreFixtures.uniqueTable()
            try await BackChannelLogoutConformance(sharedAcrossInstances: true) {
                try await StoreFixtures.store(table: table)
            }.verify()
        }
    }
}
