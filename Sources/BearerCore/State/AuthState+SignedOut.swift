extension AuthState {
    /// This session without its tokens, as a signed-out session keeps it.
    func forgettingTokens() -> AuthState {
        var state = self
        state.accessToken = nil
        state.refreshToken = nil
        state.idToken = nil
        return state
    }
}
