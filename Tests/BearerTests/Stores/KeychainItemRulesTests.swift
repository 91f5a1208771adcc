import Bearer
import Testing

@_spi(Bridge) @testable import BearerCore

@Suite("What the keychain store does with each keychain status, decided without the Security framework")
struct KeychainItemRulesTests {
    typealias Rules = KeychainItemRules
    typealias Status = KeychainItemRules.Status

    /// A scripted keychain: each call returns the next status of its script and is counted.
    final class ScriptedKeychain {
        var updates: [Int32]
        var adds: [Int32]
        var calls: [String] = []

        init(updates: [Int32], adds: [Int32] = []) {
            self.updates = updates
            self.adds = adds
        }

        func update() -> Int32 {
            calls.append("update")
            return updates.isEmpty ? Status.success : updates.removeFirst()
        }

        func add() -> Int32 {
            calls.append("add")
            return adds.isEmpty ? Status.success : adds.removeFirst()
        }
    }

    @Test("An item is named by service and account, so one key never matches another key's item")
    func itemsAreScopedByServiceAndAccount() {
        let item = Rules.Item(service: "Bearer", key: "default", accessGroup: "TEAM.app")
        #expect(item.service == "Bearer")
        #expect(item.account == "default")
        #expect(item != Rules.Item(service: "Bearer", key: "work", accessGroup: "TEAM.app"))
        #expect(item != Rules.Item(service: "default", key: "default", accessGroup: "TEAM.app"))
        #expect(item != Rules.Item(service: "Bearer", key: "default", accessGroup: "TEAM.shared"))
        #expect(item.accessGroup == "TEAM.app")
    }

    @Test("A save updates an existing item in one call")
    func updateExisting() throws {
        let keychain = ScriptedKeychain(updates: [Status.success])
        try Rules.save(key: "default", update: keychain.update, add: keychain.add)
        #expect(keychain.calls == ["update"])
    }

    @Test("A save adds the item when there is none")
    func addMissing() throws {
        let keychain = ScriptedKeychain(updates: [Status.itemNotFound], adds: [Status.success])
        try Rules.save(key: "default", update: keychain.update, add: keychain.add)
        #expect(keychain.calls == ["update", "add"])
    }

    @Test("An add that finds the item another process just added becomes an update")
    func duplicateBecomesUpdate() throws {
        let keychain = ScriptedKeychain(
            updates: [Status.itemNotFound, Status.success], adds: [Status.duplicateItem])
        try Rules.save(key: "default", update: keychain.update, add: keychain.add)
        #expect(keychain.calls == ["update", "add", "update"])
    }

    @Test("A save that keeps racing gives up after a bounded number of calls with a storage error")
    func endlessRaceIsBounded() {
        let keychain = ScriptedKeychain(
            updates: Array(repeating: Status.itemNotFound, count: 10),
            adds: Array(repeating: Status.duplicateItem, count: 10))
        let error = #expect(throws: BearerError.self) {
            try Rules.save(key: "default", update: keychain.update, add: keychain.add)
        }
        #expect(error?.kind == .storageFailure)
        #expect(keychain.calls.count == Rules.maximumSaveAttempts)
    }

    @Test("A missing entitlement names keychain-access-groups and application-identifier and offers the file store")
    func missingEntitlement() {
        let keychain = ScriptedKeychain(updates: [Status.missingEntitlement])
        let error = #expect(throws: BearerError.self) {
            try Rules.save(key: "default", update: keychain.update, add: keychain.add)
        }
        #expect(error?.kind == .invalidConfiguration)
        for needed in ["keychain-access-groups", "application-identifier", "FileSessionStore", "-34018"] {
            #expect(error?.reason.contains(needed) == true, "\(needed)")
        }
        let read = Rules.failure("read", key: "default", status: Status.missingEntitlement, message: nil)
        #expect(read.kind == .invalidConfiguration)
    }

    @Test("A locked device and other statuses are storage failures that say what happened")
    func otherFailures() {
        let locked = Rules.failure("read", key: "default", status: Status.interactionNotAllowed, message: nil)
        #expect(locked.kind == .storageFailure)
        #expect(locked.reason.contains("locked"))
        let other = Rules.failure("add", key: "default", status: -50, message: "One or more parameters were not valid.")
        #expect(other.kind == .storageFailure)
        #expect(other.reason.contains("parameters were not valid"))
        #expect(Rules.failure("add", key: "default", status: -50, message: nil).reason.contains("OSStatus -50"))
    }

    @Test("Reads treat a missing item as no session; removals treat it as removed")
    func absentItems() {
        #expect(Rules.isAbsent(Status.itemNotFound))
        #expect(!Rules.isAbsent(Status.missingEntitlement))
        #expect(Rules.isRemoved(Status.itemNotFound) && Rules.isRemoved(Status.success))
        #expect(!Rules.isRemoved(Status.interactionNotAllowed))
    }
}
