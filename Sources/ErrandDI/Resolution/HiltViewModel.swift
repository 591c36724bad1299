/// A view model made for its owner, like Hilt's `@HiltViewModel` with `hiltViewModel()`.
///
/// ```swift
/// struct ProfileView: View {
///     @HiltViewModel(ProfileViewModel.self) var viewModel
///     var body: some View { Text(viewModel.name) }
/// }
/// ```
///
/// Each owner gets a new view model, with a view-model scope of its own: bindings registered
/// with scope `.viewModel` are shared inside that view model's graph and new for the next one.
/// The view model is found among `registerMainActor` bindings first and then among the others;
/// it must be registered with scope `.unique` (the default) or `.viewModel`. The wrapper is
/// `@MainActor`, so the compiler allows it only in main-actor owners such as SwiftUI views.
/// A failed resolve stops the program with the full ``DIError`` description; to handle
/// failures, call `DI.makeViewModel(_:name:)`.
@MainActor
@propertyWrapper
public struct HiltViewModel<ViewModel> {
    /// The owner's view model.
    public let wrappedValue: ViewModel

    /// Makes a new view model of `type` from `container`, or from `DI.current`.
    ///
    /// - Parameters:
    ///   - type: The view model type.
    ///   - name: The qualifier it was registered with.
    ///   - container: The container to resolve from; `nil` means `DI.current`.
    public init(_ type: ViewModel.Type, name: DI.Name? = nil, container: DI? = nil) {
        do {
            wrappedValue = try (container ?? DI.current).makeViewModel(type, name: name)
        } catch {
            error.trap()
        }
    }
}

extension HiltViewModel: Sendable where ViewModel: Sendable {}
