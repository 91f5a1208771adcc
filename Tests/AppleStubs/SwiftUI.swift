// swift-format-ignore-file
// (An interface transcribed from Apple's documentation, kept in its spelling.)
// Interface stub of the few SwiftUI declarations the docs' samples use, for type-checking on
// Linux. Never shipped or run. Availability: SwiftUI's first release (iOS 13, macOS 10.15, tvOS 13,
// watchOS 6; visionOS 1) for every type here; onOpenURL(perform:) from iOS 14, macOS 11, tvOS 14, watchOS 7;
// task(name:priority:file:line:_:) from iOS 15, macOS 12, tvOS 15, watchOS 8. Newer SDKs spell the
// builder of List's rows @ContentBuilder; @ViewBuilder, the spelling of the SDKs before, builds the
// same rows here.
import Foundation

/// developer.apple.com/documentation/swiftui/view
@available(iOS 13.0, macCatalyst 13.0, macOS 10.15, tvOS 13.0, visionOS 1.0, watchOS 6.0, *)
@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Self.Body { get }
}

@available(iOS 13.0, macCatalyst 13.0, macOS 10.15, tvOS 13.0, visionOS 1.0, watchOS 6.0, *)
extension Never: View {
    public var body: Never { fatalError("stub") }
}

/// developer.apple.com/documentation/swiftui/viewbuilder (only the forms the samples need)
@available(iOS 13.0, macCatalyst 13.0, macOS 10.15, tvOS 13.0, visionOS 1.0, watchOS 6.0, *)
@resultBuilder public struct ViewBuilder {
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<C0: View, C1: View>(_ c0: C0, _ c1: C1) -> TupleView<(C0, C1)> { fatalError("stub") }
}

/// developer.apple.com/documentation/swiftui/tupleview
@available(iOS 13.0, macCatalyst 13.0, macOS 10.15, tvOS 13.0, visionOS 1.0, watchOS 6.0, *)
public struct TupleView<T>: View {
    public var body: Never { fatalError("stub") }
}

/// developer.apple.com/documentation/swiftui/vstack
@available(iOS 13.0, macCatalyst 13.0, macOS 10.15, tvOS 13.0, visionOS 1.0, watchOS 6.0, *)
public struct VStack<Content: View>: View {
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError("stub") }
}

/// developer.apple.com/documentation/swiftui/text
@available(iOS 13.0, macCatalyst 13.0, macOS 10.15, tvOS 13.0, visionOS 1.0, watchOS 6.0, *)
public struct Text: View {
    public init(_ content: String) {}
    public var body: Never { fatalError("stub") }
}

/// developer.apple.com/documentation/swiftui/button
@available(iOS 13.0, macCatalyst 13.0, macOS 10.15, tvOS 13.0, visionOS 1.0, watchOS 6.0, *)
public struct Button<Label: View>: View {
    public var body: Never { fatalError("stub") }
}

extension Button where Label == Text {
    /// `init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void)`
    public init(_ title: String, action: @escaping @MainActor () -> Void) {}
}

/// developer.apple.com/documentation/swiftui/list
@available(iOS 13.0, macCatalyst 13.0, macOS 10.15, tvOS 13.0, visionOS 1.0, watchOS 6.0, *)
public struct List<SelectionValue: Hashable, Content: View>: View {
    public var body: Never { fatalError("stub") }
}

@available(iOS 13.0, macCatalyst 13.0, macOS 10.15, tvOS 13.0, visionOS 1.0, watchOS 6.0, *)
extension List where SelectionValue == Never {
    /// `nonisolated init<Data, RowContent>(_ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent)
    /// where Content == ForEach<Data, Data.Element.ID, RowContent>, Data : RandomAccessCollection, RowContent : View,
    /// Data.Element : Identifiable`
    nonisolated public init<Data, RowContent>(_ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent)
    where Content == ForEach<Data, Data.Element.ID, RowContent>, Data: RandomAccessCollection, RowContent: View,
        Data.Element: Identifiable {}
}

/// developer.apple.com/documentation/swiftui/foreach (`struct ForEach<Data, ID, Content> where Data :
/// RandomAccessCollection, ID : Hashable`; a View when Content is)
@available(iOS 13.0, macCatalyst 13.0, macOS 10.15, tvOS 13.0, visionOS 1.0, watchOS 6.0, *)
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {}

@available(iOS 13.0, macCatalyst 13.0, macOS 10.15, tvOS 13.0, visionOS 1.0, watchOS 6.0, *)
extension ForEach: View where Content: View {
    public var body: Never { fatalError("stub") }
}

/// developer.apple.com/documentation/swiftui/environmentvalues
@available(iOS 13.0, macCatalyst 13.0, macOS 10.15, tvOS 13.0, visionOS 1.0, watchOS 6.0, *)
public struct EnvironmentValues {}

/// developer.apple.com/documentation/swiftui/environment
@available(iOS 13.0, macCatalyst 13.0, macOS 10.15, tvOS 13.0, visionOS 1.0, watchOS 6.0, *)
@propertyWrapper public struct Environment<Value> {
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
    public var wrappedValue: Value { fatalError("stub") }
}

/// developer.apple.com/documentation/swiftui/state
@available(iOS 13.0, macCatalyst 13.0, macOS 10.15, tvOS 13.0, visionOS 1.0, watchOS 6.0, *)
@propertyWrapper public struct State<Value> {
    public init(wrappedValue value: Value) {}
    public var wrappedValue: Value {
        get { fatalError("stub") }
        nonmutating set {}
    }
}

extension View {
    /// `nonisolated func onOpenURL(perform action: @escaping (URL) -> ()) -> some View` (iOS 14, macOS 11)
    @available(iOS 14.0, macCatalyst 14.0, macOS 11.0, tvOS 14.0, visionOS 1.0, watchOS 7.0, *)
    nonisolated public func onOpenURL(perform action: @escaping (URL) -> Void) -> some View { ModifiedView() }
}

extension View {
    /// `nonisolated func task(name: String? = nil, priority: TaskPriority = .userInitiated, file: String = #fileID,
    /// line: Int = #line, _ action: sending @escaping @isolated(any) () async -> Void) -> some View` (iOS 15, macOS 12)
    @available(iOS 15.0, macCatalyst 15.0, macOS 12.0, tvOS 15.0, visionOS 1.0, watchOS 8.0, *)
    nonisolated public func task(
        name: String? = nil, priority: TaskPriority = .userInitiated, file: String = #fileID, line: Int = #line,
        _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View { ModifiedView() }
}

/// What a modifier returns (SwiftUI's `ModifiedContent`, reduced to a type).
@available(iOS 13.0, macCatalyst 13.0, macOS 10.15, tvOS 13.0, visionOS 1.0, watchOS 6.0, *)
public struct ModifiedView: View {
    nonisolated public init() {}
    public var body: Never { fatalError("stub") }
}
