import Foundation
import Synchronization

/// Runs a batch: N workers, each taking one file at a time from the catalog, running it as a `streamlens run`
/// child (see ``ChildRun`` for why a child), renewing its lease while the child works, and recording the result.
/// A worker that finds nothing to take while other workers (here or on other machines) still hold files waits and
/// looks again, so a file whose worker died is taken over when its lease expires.
public final class BatchRunner: Sendable {
    /// How a batch ended.
    public enum Ending: Sendable, Equatable {
        /// Every file is done or failed.
        case finished(StatusCounts)
        /// Stopped by SIGINT/SIGTERM; files in progress went back to pending.
        case interrupted
        /// Stopped because the output folder's disk is full (`reason`: "No space left on device"); the file that met
        /// it and every file in progress went back to pending.
        case outputFull(reason: String)
    }

    let catalog: any BatchCatalog
    let options: BatchOptions
    let progress: BatchProgress
    private let stopping = Atomic<Bool>(false)
    private let outputFull = Mutex<String?>(nil)
    private let children = Mutex<Set<Int32>>([])

    public init(catalog: any BatchCatalog, options: BatchOptions, progress: BatchProgress) {
        self.catalog = catalog
        self.options = options
        self.progress = progress
    }

    /// Stops taking files and passes `signal` on to the running children, each in its own process group (a Ctrl-C
    /// on the terminal reaches only the batch): they stop their files, keep what they wrote as `NAME.partial`
    /// (`--keep-partial-on-interrupt`: a file that was named stays as it was) and exit 130, and their files go back
    /// to pending. A second signal passed on makes them stop hard, as a second Ctrl-C does to `run`.
    public func stop(passing signal: Int32 = SIGTERM) {
        stopping.store(true, ordering: .relaxed)
        for child in children.withLock({ $0 }) { kill(child, signal) }
    }

    /// Children running now: a stopping batch with none left waits only for the catalog.
    public var runningChildren: Int { children.withLock { $0.count } }

    public func run() async throws(CatalogError) -> Ending {
        let workerCount = options.workers
        let result: Result<Void, CatalogError> = await withTaskGroup(of: Result<Void, CatalogError>.self) { group in
            for index in 0..<workerCount {
                group.addTask {
                    do throws(CatalogError) {
                        try await self.work(as: WorkerIdentity(host: self.options.host, worker: index))
                        return .success(())
                    } catch {
                        self.stop()
                        return .failure(error)
                    }
                }
            }
            var first: Result<Void, CatalogError> = .success(())
            for await outcome in group { if case .failure = outcome, case .success = first { first = outcome } }
            return first
        }
        try result.get()
        if let reason = outputFull.withLock({ $0 }) { return .outputFull(reason: reason) }
        if stopping.load(ordering: .relaxed) { return .interrupted }
        return .finished(try await catalog.statusCounts())
    }

    private func work(as worker: WorkerIdentity) async throws(CatalogError) {
        while !stopping.load(ordering: .relaxed) {
            guard let claimed = try await catalog.claim(worker: worker, lease: options.lease) else {
                let counts = try await catalog.statusCounts()
                if counts.pending == 0 && counts.running == 0 { return }
                // Other workers hold the rest: look again, to take over any whose lease expires.
                try? await Task.sleep(for: min(options.lease / 2, .seconds(1)))
                continue
            }
            try await process(claimed, as: worker)
        }
    }

    private func process(_ claimed: ClaimedFile, as worker: WorkerIdentity) async throws(CatalogError) {
        let job = FileJob(
            input: claimed.path, outputName: claimed.outputName, outputFolder: options.outputFolder,
            videoExtension: options.videoExtension, writesPage: options.writesPages)
        let folder = ((job.reportPath as NSString).deletingLastPathComponent)
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            try await catalog.fail(path: claimed.path, worker: worker, error: "cannot create output folder '\(folder)'")
            await progress.finished(file: claimed.path, frames: 0, failed: true)
            return
        }
        if let existing = job.foreignOutput() {
            // Nothing destroys data: a file the batch did not write is left alone, and this recording waits for
            // the user to move it (--retry-failed then does it).
            try await catalog.fail(
                path: claimed.path, worker: worker,
                error: "'\(existing)' already exists and is not an output of this recording: it was left as it is; "
                    + "move it away or choose another --output-dir, then run the batch again with --retry-failed")
            await progress.finished(file: claimed.path, frames: 0, failed: true)
            return
        }
        let started = ContinuousClock.now
        let lease = LeaseWatch()
        let renewal = Task { await self.renewLease(on: claimed.path, as: worker, watch: lease) }
        let child = ChildRun(executable: options.executable, arguments: job.runArguments(sharedOptions: options.sharedRunOptions))
        let result: ChildRun.Result
        do {
            result = try await child.run { pid in
                self.children.withLock { _ = $0.insert(pid) }
                lease.childStarted(pid)
            }
        } catch {
            renewal.cancel()
            try await catalog.fail(path: claimed.path, worker: worker, error: "cannot start \(options.executable): \(error)")
            await progress.finished(file: claimed.path, frames: 0, failed: true)
            return
        }
        renewal.cancel()
        children.withLock { _ = $0.remove(result.processID) }
        let seconds = (ContinuousClock.now - started).seconds
        if lease.lost {
            // Its new owner runs it; this worker's child was stopped, and its ending is no result.
            return
        }
        switch result.outcome {
        case .exited(0):
            let outcome = Self.readOutputs(of: job, seconds: seconds)
            let recorded = try await catalog.complete(path: claimed.path, worker: worker, result: outcome)
            if !recorded {
                progress.note("\(claimed.path): lease lost while running (another worker took it over); its result stands")
            }
            await progress.finished(file: claimed.path, frames: outcome.frames, failed: false)
        case .exited(130) where stopping.load(ordering: .relaxed):
            try await catalog.release(path: claimed.path, worker: worker)
        case .killedBySignal(let signal) where stopping.load(ordering: .relaxed) && signal == SIGTERM:
            try await catalog.release(path: claimed.path, worker: worker)
        case .exited, .killedBySignal:
            if let full = OutputDisk.fullness(of: options.outputFolder, lastErrorLine: result.lastErrorLine) {
                // Not this file's fault: it goes back to pending, and the batch stops rather than fail the rest.
                try await catalog.release(path: claimed.path, worker: worker)
                outputFull.withLock { $0 = $0 ?? full }
                stop()
                return
            }
            try await recordFailure(of: claimed, as: worker, result: result)
        }
    }

    private func recordFailure(of claimed: ClaimedFile, as worker: WorkerIdentity, result: ChildRun.Result) async throws(CatalogError) {
        switch result.outcome {
        case .exited(let status):
            let reason = result.lastErrorLine ?? "streamlens run exited with status \(status)"
            try await catalog.fail(path: claimed.path, worker: worker, error: reason)
            await progress.finished(file: claimed.path, frames: 0, failed: true)
        case .killedBySignal(let signal):
            let reason = "streamlens run was killed by signal \(signal)" + (result.lastErrorLine.map { ": \($0)" } ?? "")
            try await catalog.fail(path: claimed.path, worker: worker, error: reason)
            await progress.finished(file: claimed.path, frames: 0, failed: true)
        }
    }

    /// Renews the lease every third of its length until cancelled. A lease found lost (it expired, say while the
    /// catalog's server was away, and another worker took the file over) stops this worker's child at once: two runs
    /// of one file write the same outputs, and the first to finish would rename the other's half-written files.
    private func renewLease(on path: String, as worker: WorkerIdentity, watch: LeaseWatch) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: options.lease / 3)
            if Task.isCancelled { return }
            if (try? await catalog.renew(path: path, worker: worker, lease: options.lease)) == false {
                progress.note("\(path): lease lost (expired and taken over by another worker); its run here was stopped")
                watch.loseLease()
                return
            }
        }
    }

    /// The report's counts and the events a finished run wrote.
    static func readOutputs(of job: FileJob, seconds: Double) -> FileResult {
        let reportText = try? String(contentsOfFile: job.reportPath, encoding: .utf8)
        var frames = 0
        var dropped = 0
        if let reportText, let report = try? JSONSerialization.jsonObject(with: Data(reportText.utf8)) as? [String: Any],
            let counts = report["frames"] as? [String: Any]
        {
            frames = (counts["decoded"] as? Int) ?? 0
            dropped = ((counts["dropped"] as? [String: Int]) ?? [:]).values.reduce(0, +)
        }
        let events = ((try? String(contentsOfFile: job.eventsPath, encoding: .utf8)) ?? "")
            .split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
        return FileResult(report: reportText, frames: frames, dropped: dropped, seconds: seconds, events: events)
    }
}

/// A file's lease as its worker's renewals find it, and the child to stop when it is lost.
final class LeaseWatch: Sendable {
    private let state = Mutex<(child: Int32?, lost: Bool)>((nil, false))

    /// True once a renewal found the lease taken over.
    var lost: Bool { state.withLock { $0.lost } }

    func childStarted(_ pid: Int32) {
        let stopNow = state.withLock { state in
            state.child = pid
            return state.lost
        }
        if stopNow { kill(pid, SIGKILL) }
    }

    /// Marks the lease lost and kills the child (SIGKILL: a graceful stop would still finish and rename its files).
    func loseLease() {
        let child = state.withLock { state in
            state.lost = true
            return state.child
        }
        if let child { kill(child, SIGKILL) }
    }
}
