import ErrandDI

/// A main-actor view model, as SwiftUI apps write them.
@MainActor
final class ProfileViewModel {
    let service: ProfileService
    var title = "Profile"

    init(service: ProfileService) {
        self.service = service
    }
}

/// A dependency shared inside one view model's graph (Hilt's `@ViewModelScoped`).
final class FormState: Sendable {
    let number: Int

    init(number: Int) {
        self.number = number
    }
}

/// A validator that needs the form state of its view model.
final class FormValidator: Sendable {
    let state: FormState

    init(state: FormState) {
        self.state = state
    }
}

/// A view model whose graph shares one `FormState`.
@MainActor
final class EditProfileViewModel {
    let state: FormState
    let validator: FormValidator

    init(state: FormState, validator: FormValidator) {
        self.state = state
        self.validator = validator
    }
}
