// swift-format-ignore-file
// (An interface transcribed from Apple's documentation, kept in its spelling.)
// Interface stub of the WidgetKit declarations the app-extensions guide's widget sample uses, for
// type-checking on Linux. Never shipped or run. Availability from developer.apple.com/documentation/widgetkit:
// iOS 14, macOS 11, watchOS 9, visionOS 26; not tvOS; no Mac Catalyst entry.
import Foundation

/// developer.apple.com/documentation/widgetkit/timelineentry — `protocol TimelineEntry`
@available(iOS 14.0, macOS 11.0, visionOS 26.0, watchOS 9.0, *)
@available(tvOS, unavailable) @available(macCatalyst, unavailable)
public protocol TimelineEntry {
    /// `var date: Date { get }`
    var date: Date { get }
}

/// developer.apple.com/documentation/widgetkit/timelineprovidercontext — `struct TimelineProviderContext`
@available(iOS 14.0, macOS 11.0, visionOS 26.0, watchOS 9.0, *)
@available(tvOS, unavailable) @available(macCatalyst, unavailable)
public struct TimelineProviderContext {
    /// `var isPreview: Bool { get }`
    public var isPreview: Bool { fatalError("stub") }
}

/// developer.apple.com/documentation/widgetkit/timelinereloadpolicy — `struct TimelineReloadPolicy`,
/// which conforms to `Equatable` only (the page lists no `Sendable`)
@available(iOS 14.0, macOS 11.0, visionOS 26.0, watchOS 9.0, *)
@available(tvOS, unavailable) @available(macCatalyst, unavailable)
public struct TimelineReloadPolicy: Equatable {
    /// `static let atEnd: TimelineReloadPolicy`
    public static var atEnd: TimelineReloadPolicy { fatalError("stub") }
    /// `static func after(_ date: Date) -> TimelineReloadPolicy`
    public static func after(_ date: Date) -> TimelineReloadPolicy { fatalError("stub") }
}

/// developer.apple.com/documentation/widgetkit/timeline — `struct Timeline<EntryType> where EntryType : TimelineEntry`
@available(iOS 14.0, macOS 11.0, visionOS 26.0, watchOS 9.0, *)
@available(tvOS, unavailable) @available(macCatalyst, unavailable)
public struct Timeline<EntryType: TimelineEntry> {
    /// `let entries: [EntryType]`
    public let entries: [EntryType]
    /// `init(entries: [EntryType], policy: TimelineReloadPolicy)`
    public init(entries: [EntryType], policy: TimelineReloadPolicy) { self.entries = entries }
}

/// developer.apple.com/documentation/widgetkit/timelineprovider — `protocol TimelineProvider`
@available(iOS 14.0, macOS 11.0, visionOS 26.0, watchOS 9.0, *)
@available(tvOS, unavailable) @available(macCatalyst, unavailable)
public protocol TimelineProvider {
    associatedtype Entry: TimelineEntry
    typealias Context = TimelineProviderContext
    /// `func placeholder(in context: Self.Context) -> Self.Entry`
    func placeholder(in context: Self.Context) -> Self.Entry
    /// `@preconcurrency func getSnapshot(in context: Self.Context, completion: @escaping @Sendable (Self.Entry) -> Void)`
    @preconcurrency func getSnapshot(in context: Self.Context, completion: @escaping @Sendable (Self.Entry) -> Void)
    /// `@preconcurrency func getTimeline(in context: Self.Context, completion: @escaping @Sendable (Timeline<Self.Entry>) -> Void)`
    @preconcurrency func getTimeline(in context: Self.Context, completion: @escaping @Sendable (Timeline<Self.Entry>) -> Void)
}
