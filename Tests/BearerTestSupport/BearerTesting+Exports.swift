// The package's own tests use the fakes an app uses (RecordingTransport, TestClock,
// FakeAuthorizer) beside the helpers below, which only the package's tests need.
@_exported public import BearerTesting
