// The benchmarks: run with scripts/bench, which builds this in release mode and starts the local
// server it needs. Each figure is a median over repeated runs, compared with a baseline measured
// in the same run, because the machine is shared and noisy.
import Foundation

let environment = ProcessInfo.processInfo.environment
guard let server = environment["BEARER_BENCH_SERVER"].flatMap(URL.init(string:)) else {
    FileHandle.standardError.write(Data("Run the benchmarks with scripts/bench.\n".utf8))
    exit(64)
}
let repeats = Int(environment["BEARER_BENCH_REPEATS"] ?? "") ?? 7
// BEARER_BENCH_ONLY=coldStart,sha256 runs only the named groups, for profiling one of them.
let onlyGroups = environment["BEARER_BENCH_ONLY"].map { Set($0.split(separator: ",").map(String.init)) }
var figures: [Figure] = []

func runs(_ group: String) -> Bool { onlyGroups?.contains(group) ?? true }

@MainActor func report(_ figure: Figure) {
    figures.append(figure)
    var line = "\(figure.name): \(String(format: "%.1f", figure.value)) \(figure.unit)"
    if let baseline = figure.baseline, let ratio = figure.ratio {
        line += " | baseline \(String(format: "%.1f", baseline)) | ratio \(String(format: "%.2f", ratio))"
    }
    if let target = figure.target { line += " | target \(target): \(figure.meetsTarget == true ? "met" : "NOT MET")" }
    print(line)
}

do {
    if runs("authorize") { report(try await Benchmarks.authorize(base: server, repeats: repeats)) }
    if runs("concurrentRefresh") {
        for figure in try await Benchmarks.concurrentRefresh(base: server, repeats: repeats) { report(figure) }
    }
    if runs("authorizedRequests") {
        report(try await Benchmarks.authorizedRequests(base: server, repeats: max(3, repeats / 2)))
    }
    if runs("dpopProof") { report(try await DPoPBenchmarks.proof(base: server, repeats: repeats)) }
    if runs("idTokenCheck") { report(try await IDTokenBenchmarks.verification(repeats: repeats)) }
    if runs("clientAssertion") { report(try await ClientAssertionBenchmarks.assertion(repeats: repeats)) }
    if runs("pushedSignIn") {
        for figure in try await PushedAuthorizationBenchmarks.signIn(repeats: repeats) { report(figure) }
    }
    if runs("dpopRequests") {
        for figure in try await DPoPBenchmarks.authorizedRequests(base: server, repeats: max(3, repeats / 2)) {
            report(figure)
        }
    }
    if runs("coldStart") { report(try await Benchmarks.coldStart(repeats: repeats)) }
    if runs("startup"), let bearer = environment["BEARER_BENCH_BEARER"], let floor = environment["BEARER_BENCH_FLOOR"],
        let python = environment["BEARER_BENCH_PYTHON"]
    {
        for figure in try await Benchmarks.startup(bearer: bearer, floor: floor, python: python, repeats: repeats) {
            report(figure)
        }
    }
    if runs("refreshWindow"), let bearer = environment["BEARER_BENCH_BEARER"] {
        report(try await Benchmarks.refreshWindow(bearer: bearer, base: server, repeats: repeats))
    }
    if let postgres = environment["BEARER_BENCH_POSTGRES"], let worker = environment["BEARER_BENCH_FLEET_WORKER"] {
        if runs("postgresRestore") {
            for figure in try await PostgresBenchmarks.restore(connection: postgres, base: server, repeats: repeats) {
                report(figure)
            }
        }
        if runs("postgresFleet") {
            for figure in try await PostgresBenchmarks.fleetRefresh(connection: postgres, worker: worker, base: server)
            {
                report(figure)
            }
        }
    }
    if runs("migrations") { for figure in try await Benchmarks.migrations(repeats: repeats) { report(figure) } }
    if runs("sha256") { report(try await Benchmarks.sha256(repeats: max(3, repeats / 2))) }
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
    exit(1)
}

if let path = environment["BEARER_BENCH_JSON"] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(figures).write(to: URL(fileURLWithPath: path))
}
