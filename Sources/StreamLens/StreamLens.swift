// The pipeline runner: configuration, wiring of stages, the run loop.
@_exported import StreamLensCore
