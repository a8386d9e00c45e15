import ArgumentParser
import Foundation
import StreamLens
import StreamLensBatch

/// `streamlens status --catalog URL [--json]`: how far a batch got.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show how far a batch got: files done, failed (with their errors), pending and running.",
        discussion: "Exit status: 0 shown, 1 the catalog cannot be opened or read, 2 bad arguments.")

    @Option(help: "sqlite:PATH or postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE.")
    var catalog: String

    @Flag(help: "Print JSON: {\"files\": {\"done\": N, \"failed\": N, \"pending\": N, \"running\": N}, …}.")
    var json = false

    struct Status: Encodable {
        struct FailedFile: Encodable { var path: String; var error: String }
        /// `stale`: its worker is gone (a dead process on this machine, or a lease past its time); the next batch
        /// run takes the file over.
        struct RunningFile: Encodable { var path: String; var owner: String; var stale: Bool }
        var files: StatusCounts
        var total: Int
        var frames: Int
        var events: Int
        var failed: [FailedFile]
        var running: [RunningFile]
    }

    func run() async throws {
        let files: [CatalogFile]
        do {
            let location = try CatalogLocation(parsing: catalog)
            let opened = try await location.open(create: false)
            do { files = try await opened.files() } catch {
                await opened.close()
                throw error
            }
            await opened.close()
        } catch {
            printError(error)
            throw ExitCode((error as? CatalogError)?.exitStatus ?? 1)
        }
        let counts = StatusCounts(files)
        let status = Status(
            files: counts, total: counts.total, frames: files.compactMap(\.frames).reduce(0, +),
            events: files.map(\.events).reduce(0, +),
            failed: files.filter { $0.status == .failed }.map { .init(path: $0.path, error: $0.error ?? "") },
            running: files.filter { $0.status == .running }.map { file in
                let deadOwner = file.leaseOwner.flatMap(WorkerIdentity.init)?.isDeadLocalProcess == true
                let expired = file.leaseExpires.map { $0 < Date().timeIntervalSince1970 } ?? false
                return .init(path: file.path, owner: file.leaseOwner ?? "", stale: deadOwner || expired)
            })
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(status), as: UTF8.self))
            return
        }
        print("files: \(counts.total) (\(counts.done) done, \(counts.failed) failed, \(counts.pending) pending, \(counts.running) running)")
        print("frames: \(status.frames) · events: \(status.events)")
        for file in status.failed { print("failed: \(file.path): \(file.error)") }
        for file in status.running {
            print("running: \(file.path) (\(file.owner))"
                + (file.stale ? ": its worker is gone; the next batch run takes it over" : ""))
        }
    }
}
