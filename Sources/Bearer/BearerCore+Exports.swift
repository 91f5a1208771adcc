// The session at rest (the model, its encoding, the stores, the freshness rule) lives in
// BearerCore, which needs no networking library, so a process that only reads a stored session
// starts without loading one. `import Bearer` brings it along.
@_exported public import BearerCore
