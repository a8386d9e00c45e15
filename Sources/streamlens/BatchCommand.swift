import ArgumentParser
import Foundation
import StreamLens
import StreamLensBatch
import Synchronization

/// `streamlens batch INPUT... --output-dir DIR [run options]`: every file through `run`, remembered in a catalog.
struct BatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Run many recordings, resumably: every run option applies to every file.",
        discussion: """
            INPUT is a video file, a folder (searched recursively for video files) or @LIST (a file naming one input a \
            line). Per input, under --output-dir with the input tree's layout: NAME.mp4 (unless --output null), \
            NAME.report.json, NAME.events.jsonl, NAME.vtt; for the batch: batch-summary.html and batch-summary.json.
            The catalog (default DIR/catalog.sqlite) remembers every file: running the same command again does only \
            what is not done yet, and redoes inputs that changed or were done with other --blur settings. With a \
            PostgreSQL catalog, any number of batch processes on any number of machines share the work (inputs and \
            --output-dir must be at the same paths on every machine).
            Exit status: 0 every file done, 1 a file failed, the catalog failed or the output folder filled up (the files \
            left stay pending), 2 bad arguments, 130 interrupted.
            """
    )

    @Argument(help: "Video files, folders or @LIST files.")
    var inputs: [String] = []

    @Option(help: "Folder for every output (created if missing).")
    var outputDir: String

    @Option(help: "A pipeline file (YAML) for every file's run; its input, output and report paths are set per file.")
    var pipeline: String?

    @Option(help: "sqlite:PATH or postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE (default: sqlite:DIR/catalog.sqlite).")
    var catalog: String?

    @Option(parsing: .unconditional, help: "Files run at once on this machine, each a full pipeline (default: half the cores, at least 2 where there are 2).")
    var workers: Int?

    @Option(parsing: .unconditional, help: "Seconds a worker holds a file without renewing; a dead worker's file is taken over after this.")
    var lease: Double = 30

    @Flag(help: "Try failed files again.")
    var retryFailed = false

    @Flag(help: "Do every file again, done ones too.")
    var force = false

    @Option(help: ArgumentHelp("Machine name in leases (tests play several machines with it).", visibility: .hidden))
    var workerHost: String?

    @OptionGroup(title: "Run options (applied to every file)") var options: RunOptions

    func run() async throws {
        let batchOptions: BatchOptions
        do { batchOptions = try validated() } catch {
            printError(error)
            throw ExitCode(2)
        }
        let location: CatalogLocation
        do {
            location = try CatalogLocation(
                parsing: catalog ?? "sqlite:" + (batchOptions.outputFolder as NSString).appendingPathComponent("catalog.sqlite"))
        } catch {
            printError(error)
            throw ExitCode(error.exitStatus)
        }
        let inputs: [CatalogInput]
        do {
            inputs = try InputDiscovery.discover(self.inputs, outputFolder: batchOptions.outputFolder).map { input in
                var input = input
                input.outputSettings = batchOptions.outputSettings
                return input
            }
        } catch {
            printError(error)
            throw ExitCode(2)
        }
        // An output folder that is the recordings' own folder would have every recording's output replace it.
        for input in inputs {
            let job = FileJob(
                input: input.path, outputName: input.outputName, outputFolder: batchOptions.outputFolder,
                videoExtension: batchOptions.videoExtension, writesPage: batchOptions.writesPages)
            if let clash = job.outputReplacingInput() {
                printError("--output-dir '\(batchOptions.outputFolder)' would write '\(clash)', which is the recording "
                    + "'\(input.path)' itself: choose an output folder outside the input folder")
                throw ExitCode(2)
            }
        }
        do { try FileManager.default.createDirectory(atPath: batchOptions.outputFolder, withIntermediateDirectories: true) } catch {
            var isFolder: ObjCBool = false
            let isFile = FileManager.default.fileExists(atPath: batchOptions.outputFolder, isDirectory: &isFolder) && !isFolder.boolValue
            printError(isFile
                ? "--output-dir '\(batchOptions.outputFolder)' is a file, not a folder: give a folder (it is created when missing)"
                : "cannot create output folder '\(batchOptions.outputFolder)': check the path and its permissions")
            throw ExitCode(1)
        }
        let started = ContinuousClock.now
        let catalog: any BatchCatalog
        do { catalog = try await location.open() } catch {
            printError(error)
            throw ExitCode(1)
        }
        let exitStatus = await runBatch(inputs: inputs, catalog: catalog, options: batchOptions, location: location, started: started)
        await catalog.close()
        throw ExitCode(exitStatus)
    }

    /// How to finish a stopped batch: the same command, except that `--force` would start every file over again.
    private var goOn: String {
        force ? "run it again without --force to do the files left (with --force every file starts over)"
            : "run the same command to go on"
    }

    private func runBatch(
        inputs: [CatalogInput], catalog: any BatchCatalog, options batchOptions: BatchOptions, location: CatalogLocation,
        started: ContinuousClock.Instant
    ) async -> Int32 {
        do {
            let counts = try await catalog.register(inputs, policy: RegistrationPolicy(retryFailed: retryFailed, force: force))
            let progress = BatchProgress(
                total: counts.total, alreadyFinished: counts.done + counts.failed, alreadyFailed: counts.failed,
                enabled: batchOptions.showProgress)
            let runner = BatchRunner(catalog: catalog, options: batchOptions, progress: progress)
            let watchdog = StopWatchdog(runner: runner)
            let signals = StopSignals { signal in
                runner.stop(passing: signal)
                watchdog.arm()
            }
            let ending = try await runner.run()
            watchdog.disarm()
            signals.cancel()
            await progress.end()
            let files = try await catalog.files()
            let thisRun = await progress.thisRun
            let summary = BatchSummary(
                catalog: location.description, files: files, finishedThisRun: thisRun.files,
                framesThisRun: thisRun.frames, wallSeconds: (ContinuousClock.now - started).seconds)
            var summaryWritten = true
            do { try summary.write(to: batchOptions.outputFolder) } catch {
                summaryWritten = false
                // A full output folder is said once, below.
                if case .outputFull = ending {} else {
                    printError("cannot write the batch summary into '\(batchOptions.outputFolder)': check free space and permissions")
                }
            }
            switch ending {
            case .outputFull(let reason):
                let counts = summary.counts
                printError("the output folder '\(batchOptions.outputFolder)' is full (\(reason)): the batch stopped with "
                    + "\(counts.done) of \(counts.total) files done and \(counts.pending) left pending, none marked failed; "
                    + "free space there and \(goOn)")
                return 1
            case .interrupted:
                print("batch: interrupted; \(summary.counts.done) of \(summary.counts.total) files done; \(goOn)")
                return 130
            case .finished(let final):
                let summaryPath = (batchOptions.outputFolder as NSString).appendingPathComponent("batch-summary.html")
                // The page is named only when it was written.
                print("batch: \(final.total) files: \(final.done) done, \(final.failed) failed"
                    + (summaryWritten ? " · \(summaryPath)" : ""))
                for file in files where file.status == .failed {
                    try? FileHandle.standardError.write(
                        contentsOf: Data("streamlens: failed: \(file.path): \(file.error ?? "")\n".utf8))
                }
                return final.failed > 0 ? 1 : 0
            }
        } catch {
            // The default catalog lives in the output folder: when that fills up, the catalog's write fails first.
            if case CatalogError.queryFailed = error,
                let full = OutputDisk.fullness(of: batchOptions.outputFolder, lastErrorLine: "\(error)")
            {
                printError("the output folder '\(batchOptions.outputFolder)' is full: the catalog could not be written "
                    + "(\(full)), so the batch stopped; free space there and \(goOn) (it takes over "
                    + "the files left running)")
                return 1
            }
            printError(error)
            // Refused before any file ran, like two inputs of one batch with the same output name.
            if case CatalogError.outputNameTaken = error { return 2 }
            return 1
        }
    }

    /// The batch's own options, checked; the run options checked as `run` would check them.
    private func validated() throws -> BatchOptions {
        if inputs.isEmpty { throw BatchArgumentError("give at least one INPUT (a video file, a folder or @LIST)") }
        if let option = options.firstPerFileOption {
            throw BatchArgumentError("\(option) is set per file by batch (under --output-dir); leave it out")
        }
        if let option = options.firstSingleRunOption {
            throw BatchArgumentError(
                "\(option) is for a single run: every file of a batch would share it; leave it out (each file's report, "
                    + "events and subtitles go under --output-dir)")
        }
        var videoExtension: String? = "mp4"
        if let output = options.output {
            let name = output.hasPrefix(".") ? String(output.dropFirst()) : output
            switch name {
            case "null": videoExtension = nil
            case "mp4", "mkv", "webm", "mov": videoExtension = name
            default: throw BatchArgumentError("--output in a batch is null or a container (mp4, mkv, webm, mov), not '\(output)'")
            }
        }
        // The same checks `run` makes, on a stand-in input: a bad option fails here once, not once per file.
        var check = options
        check.input = "/dev/null"
        check.output = nil
        let pipelinePath = pipeline.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let configuration = try check.makeConfiguration(pipelineFile: pipelinePath)
        // Without --output, the pipeline file's sink says the container (or analysis only); its file name is set per
        // file. A sink description names one place for every file: a batch cannot use it.
        if options.output == nil, let setIn = configuration.outputSetIn {
            switch configuration.output {
            case .null: videoExtension = nil
            case .file(_, let container): videoExtension = container.rawValue
            case .description:
                throw BatchArgumentError(
                    "\(setIn.file): '\(setIn.key)' is a GStreamer description, which would write every file to one "
                        + "place; give a file name (its container is used: mp4, mkv, webm or mov) or null, or pass --output")
            }
        }
        // The catalog records the privacy settings beside each file: one done without the blur, or with another, is
        // done again rather than kept with a face in a video the user believes is blurred.
        let outputSettings: String
        do { outputSettings = try Self.outputSettings(of: configuration) } catch {
            throw BatchArgumentError("\(error)")
        }
        if configuration.timelinePath != nil || configuration.metricsPort != nil {
            throw BatchArgumentError(
                "\(pipeline ?? "the pipeline file") sets report.timeline or report.metrics_port, which every file would share; remove them for a batch")
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // A pipeline keeps about 1.2 cores busy (decode, analysis, encode threads): half the cores, but two on a
        // 2-core machine, where a second file still gained (docs/figures/performance.md, Batch).
        let workerCount = workers ?? min(max(1, cores), max(2, cores / 2))
        guard (1...256).contains(workerCount) else { throw BatchArgumentError("--workers \(workerCount) is not within 1…256") }
        guard lease.isFinite, (1...86_400).contains(lease) else {
            throw BatchArgumentError("--lease \(lease) is not allowed; give 1…86400 seconds")
        }
        let outputFolder = URL(fileURLWithPath: outputDir).standardizedFileURL.path
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        var batchOptions = BatchOptions(
            executable: executable, outputFolder: outputFolder, videoExtension: videoExtension,
            sharedRunOptions: (pipelinePath.map { [$0] } ?? []) + options.sharedArguments, workers: workerCount,
            lease: .milliseconds(Int64(lease * 1000)), host: workerHost ?? WorkerIdentity.localHost,
            showProgress: !options.quiet)
        // A pipeline file's report page is written per file, beside its JSON report.
        batchOptions.writesPages = configuration.htmlPath != nil
        batchOptions.outputSettings = outputSettings
        return batchOptions
    }
}

/// A bad batch argument, said in one line.
struct BatchArgumentError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// SIGINT/SIGTERM/SIGHUP stop a batch gracefully: no new files; running ones stop, keep their outputs as
/// `NAME.partial` and go back to pending. Every signal is passed on, so a second one stops the children hard.
final class StopSignals {
    private let sources: [any DispatchSourceSignal]

    init(onStop: @escaping @Sendable (Int32) -> Void) {
        sources = InterruptSignal.makeStopSignalSources { signalNumber, _ in onStop(signalNumber) }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}

/// A stopped batch whose children have all ended waits only for the catalog to take their files back; a catalog
/// whose server went away kept a Ctrl-C waiting for its 30 s limit and then ended the batch as failed. After
/// ``patience`` with no child left, the batch ends anyway, interrupted (exit 130): its files stay claimed until
/// their leases expire, and the next run takes them over.
final class StopWatchdog: Sendable {
    static let patience: Duration = .seconds(3)
    private let runner: BatchRunner
    private let armed = Atomic<Bool>(false)
    private let disarmed = Atomic<Bool>(false)

    init(runner: BatchRunner) { self.runner = runner }

    /// Starts watching (once; later calls do nothing).
    func arm() {
        guard !armed.exchange(true, ordering: .relaxed) else { return }
        Thread.detachNewThread { [self] in
            var idleSince: ContinuousClock.Instant?
            while !disarmed.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: 0.2)
                guard runner.runningChildren == 0 else {
                    idleSince = nil
                    continue
                }
                let now = ContinuousClock.now
                if let idleSince, now - idleSince >= Self.patience, !disarmed.load(ordering: .relaxed) {
                    printError(
                        "stopped; the catalog did not answer, so the files in progress stay claimed until their "
                            + "lease expires (the next run takes them over)")
                    exit(130)
                }
                if idleSince == nil { idleSince = now }
            }
        }
    }

    /// The batch ended by itself: nothing to do.
    func disarm() { disarmed.store(true, ordering: .relaxed) }
}

/// One error line from a message.
func printError(_ message: String) { printError(BatchArgumentError(message)) }
