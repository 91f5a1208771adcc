/// Comparisons whose duration does not depend on where the inputs differ.
enum ConstantTime {
    /// Compares without returning early, so timing tells nothing about the expected value (a
    /// `state`, a `nonce`). Only the lengths may be learnt.
    ///
    /// - Parameters:
    ///   - lhs: One string.
    ///   - rhs: The other.
    /// - Returns: Whether their UTF-8 bytes are equal.
    static func equals(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
