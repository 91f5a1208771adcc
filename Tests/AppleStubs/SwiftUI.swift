// swift-format-ignore-file
// (An interface transcribed from Apple's documentation, kept in its spelling.)
// Interface stub of the few SwiftUI declarations the docs' samples use, for type-checking on
// Linux. Never shipped or run.
import Foundation

/// developer.apple.com/documentation/swiftui/view
@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Self.Body { get }
}

extension Never: View {
    public var body: Never { fatalError("stub") }
}

/// developer.apple.com/documentation/swiftui/viewbuilder (only the forms the samples need)
@resultBuilder public struct ViewBuilder {
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<C0: View, C1: View>(_ c0: C0, _ c1: C1) -> TupleView<(C0, C1)> { fatalError("stub") }
}

/// developer.apple.com/documentation/swiftui/tupleview
public struct TupleView<T>: View {
    public var body: Never { fatalError("stub") }
}

/// developer.apple.com/documentation/swiftui/vstack
public struct VStack<Content: View>: View {
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError("stub") }
}

/// developer.apple.com/documentation/swiftui/text
public struct Text: View {
    public init(_ content: String) {}
    public var body: Never { fatalError("stub") }
}

/// developer.apple.com/documentation/swiftui/button
public struct Button<Label: View>: View {
    public var body: Never { fatalError("stub") }
}

extension Button where Label == Text {
    /// `init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void)`
    public init(_ title: String, action: @escaping @MainActor () -> Void) {}
}

/// developer.apple.com/documentation/swiftui/environmentvalues
public struct EnvironmentValues {}

/// developer.apple.com/documentation/swiftui/environment
@propertyWrapper public struct Environment<Value> {
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
    public var wrappedValue: Value { fatalError("stub") }
}

/// developer.apple.com/documentation/swiftui/state
@propertyWrapper public struct State<Value> {
    public init(wrappedValue value: Value) {}
    public var wrappedValue: Value {
        get { fatalError("stub") }
        nonmutating set {}
    }
}

extension View {
    /// `nonisolated func onOpenURL(perform action: @escaping (URL) -> ()) -> some View` (iOS 14, macOS 11)
    nonisolated public func onOpenURL(perform action: @escaping (URL) -> Void) -> some View { ModifiedView() }
}

/// What a modifier returns (SwiftUI's `ModifiedContent`, reduced to a type).
public struct ModifiedView: View {
    nonisolated public init() {}
    public var body: Never { fatalError("stub") }
}
