#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The key sets servers publish, kept in memory per `jwks_uri` for as long as their
/// `Cache-Control` allows, and fetched again for a key the set does not hold at most once a minute,
/// so that tokens naming unknown keys cannot make Bearer hammer the server.
actor ServerKeyCache {
    /// A set, when it was fetched and until when it may be used without asking again.
    struct Entry: Sendable {
        var keys: JSONWebKeySet
        var fetchedAt: Date
        var freshUntil: Date
    }

    /// A fetched set with how long the server says it may be kept.
    struct Fetched: Sendable {
        var keys: JSONWebKeySet
        var maximumAge: TimeInterval?
    }

    /// The least time between two fetches of one set for keys it does not hold.
    static let minimumRefetchInterval: TimeInterval = 60
    /// How long a set is kept when its answer does not say.
    static let defaultLifetime: TimeInterval = 300
    /// The longest a set is kept, whatever its answer says.
    static let maximumLifetime: TimeInterval = 86_400

    private var entries: [URL: Entry] = [:]
    private var fetches: [URL: Task<Fetched, any Error>] = [:]

    /// The set at `url`: the kept one while it is fresh, else fetched with `fetch` (one fetch at a
    /// time per URL, whoever asks). With `refetchingForUnknownKey`, fetched again unless the kept set
    /// is less than ``minimumRefetchInterval`` old.
    ///
    /// A set that can no longer be fetched is used past its freshness rather than checking nothing;
    /// with none kept, the fetch's error is thrown.
    func keys(
        at url: URL,
        now: Date,
        refetchingForUnknownKey: Bool,
        fetch: @escaping @Sendable () async throws -> Fetched
    ) async throws -> JSONWebKeySet {
        let kept = entries[url]
        if let kept {
            if refetchingForUnknownKey {
                if now.timeIntervalSince(kept.fetchedAt) < Self.minimumRefetchInterval { return kept.keys }
            } else if now < kept.freshUntil {
                return kept.keys
            }
        }
        let task: Task<Fetched, any Error>
        if let running = fetches[url] {
            task = running
        } else {
            task = Task { try await fetch() }
            fetches[url] = task
        }
        do {
            let fetched = try await task.value
            if fetches[url] == task { fetches[url] = nil }
            let lifetime = min(max(fetched.maximumAge ?? Self.defaultLifetime, 0), Self.maximumLifetime)
            entries[url] = Entry(keys: fetched.keys, fetchedAt: now, freshUntil: now.addingTimeInterval(lifetime))
            return fetched.keys
        } catch {
            if fetches[url] == task { fetches[url] = nil }
            guard let kept else { throw error }
            // Asked again no sooner than the refetch interval, so a server that is down is not
            // asked on every token.
            entries[url]?.fetchedAt = now
            entries[url]?.freshUntil = max(kept.freshUntil, now.addingTimeInterval(Self.minimumRefetchInterval))
            return kept.keys
        }
    }

    /// `max-age` of a `Cache-Control` value (RFC 9111 §5.2.2.1), `0` for `no-store` or `no-cache`,
    /// `nil` when it says neither.
    static func maximumAge(cacheControl: String?) -> TimeInterval? {
        guard let cacheControl else { return nil }
        var age: TimeInterval?
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map {
                String($0).trimmingWhitespace().lowercased()
            }
            switch parts.first {
            case "no-store", "no-cache":
                return 0
            case "max-age" where parts.count == 2:
                let value = parts[1].filter { $0 != "\"" }
                if let seconds = Int(value), seconds >= 0 { age = TimeInterval(seconds) }
            default:
                continue
            }
        }
        return age
    }
}
