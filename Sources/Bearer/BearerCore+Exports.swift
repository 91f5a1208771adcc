// All of the OAuth logic lives in BearerCore, which needs no networking library, so a process
// that only reads a stored session starts without loading one. `import Bearer` brings it along,
// with the Foundation types Bearer's own API takes and returns (`URLRequest`, `HTTPURLResponse`,
// which live in FoundationNetworking on Linux).
@_exported public import BearerCore

#if canImport(FoundationNetworking)
    @_exported public import FoundationNetworking
#endif
