import StreamLensGStreamer

// The functions the plugin's C layer (Sources/CStreamLensGstPlugin) calls, declared in its streamlens_gst_plugin.h.
// Each takes the element's logic object as an opaque pointer (retained once by `streamlens_logic_new`, released by
// `streamlens_logic_free`) and borrowed GStreamer pointers, which StreamLensGStreamer's wrappers read. They never
// throw and never trap on bad input: a problem becomes a GStreamer message.

/// The C enum `StreamLensElementKind`.
private enum ElementKind: Int32 {
    case detect = 0, signs, annotate, overlay, stats, blur
}

/// The C enum `StreamLensStartResult`.
private enum StartResult: Int32 {
    case failed = 0, process, passthrough
}

private func logic(_ pointer: UnsafeMutableRawPointer) -> ElementLogic {
    Unmanaged<ElementLogic>.fromOpaque(pointer).takeUnretainedValue()
}

@_cdecl("streamlens_logic_new")
public func streamlensLogicNew(kind: Int32, element: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
    let handle = ElementHandle(borrowing: element)
    let made: ElementLogic = switch ElementKind(rawValue: kind) {
    case .detect: DetectElement(element: handle)
    case .signs: SignsElement(element: handle)
    case .annotate: AnnotateElement(element: handle)
    case .overlay: OverlayElement(element: handle)
    case .stats: StatsElement(element: handle)
    case .blur: BlurElement(element: handle)
    case nil: ElementLogic(element: handle)
    }
    return Unmanaged.passRetained(made).toOpaque()
}

@_cdecl("streamlens_logic_free")
public func streamlensLogicFree(_ pointer: UnsafeMutableRawPointer) {
    Unmanaged<ElementLogic>.fromOpaque(pointer).release()
}

@_cdecl("streamlens_logic_set_property")
public func streamlensLogicSetProperty(
    _ pointer: UnsafeMutableRawPointer, _ name: UnsafePointer<CChar>, _ value: UnsafeRawPointer
) {
    guard let property = PropertyValue(gValue: value) else { return }
    logic(pointer).setProperty(String(cString: name), property)
}

@_cdecl("streamlens_logic_get_property")
public func streamlensLogicGetProperty(
    _ pointer: UnsafeMutableRawPointer, _ name: UnsafePointer<CChar>, _ value: UnsafeMutableRawPointer
) {
    logic(pointer).property(String(cString: name))?.store(into: value)
}

@_cdecl("streamlens_logic_start")
public func streamlensLogicStart(_ pointer: UnsafeMutableRawPointer) -> Int32 {
    let result: StartResult = switch logic(pointer).start() {
    case .failed: .failed
    case .process: .process
    case .passthrough: .passthrough
    }
    return result.rawValue
}

@_cdecl("streamlens_logic_stop")
public func streamlensLogicStop(_ pointer: UnsafeMutableRawPointer) -> Int32 {
    logic(pointer).stop() ? 1 : 0
}

@_cdecl("streamlens_logic_set_caps")
public func streamlensLogicSetCaps(_ pointer: UnsafeMutableRawPointer, _ caps: UnsafeMutableRawPointer) -> Int32 {
    logic(pointer).negotiate(caps: caps) ? 1 : 0
}

@_cdecl("streamlens_logic_prepare_output")
public func streamlensLogicPrepareOutput(
    _ pointer: UnsafeMutableRawPointer, _ input: UnsafeMutableRawPointer
) -> UnsafeMutableRawPointer? {
    logic(pointer).prepareOutput(BufferHandle(borrowing: input))
}

@_cdecl("streamlens_logic_transform")
public func streamlensLogicTransform(_ pointer: UnsafeMutableRawPointer, _ buffer: UnsafeMutableRawPointer) -> Int32 {
    logic(pointer).process(BufferHandle(borrowing: buffer)).gstValue
}

@_cdecl("streamlens_logic_sink_event")
public func streamlensLogicSinkEvent(_ pointer: UnsafeMutableRawPointer, _ event: UnsafeMutableRawPointer) {
    logic(pointer).handle(SinkPadEvent(borrowing: event))
}

@_cdecl("streamlens_logic_buffer_arrived")
public func streamlensLogicBufferArrived(_ pointer: UnsafeMutableRawPointer, _ buffer: UnsafeMutableRawPointer) {
    logic(pointer).bufferArrived(BufferHandle(borrowing: buffer))
}

@_cdecl("streamlens_logic_buffer_pushed")
public func streamlensLogicBufferPushed(_ pointer: UnsafeMutableRawPointer, _ result: Int32) {
    logic(pointer).bufferPushed(FlowResult(gstValue: result))
}

@_cdecl("streamlens_logic_playing_changed")
public func streamlensLogicPlayingChanged(_ pointer: UnsafeMutableRawPointer, _ playing: Int32) {
    logic(pointer).playingChanged(playing != 0)
}
