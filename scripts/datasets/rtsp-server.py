#!/usr/bin/python3
"""A real RTSP server on loopback for StreamLens's reconnection tests (gst-rtsp-server through GObject introspection).

Serves an H.264 test pattern at rtsp://127.0.0.1:PORT/test until killed. Run it with Debian's python3 (the gi module
comes from python3-gi and gir1.2-gst-rtsp-server-1.0, installed by scripts/setup.sh):

    /usr/bin/python3 scripts/datasets/rtsp-server.py PORT [WIDTHxHEIGHT] [FPS]

Prints "ready" on standard output once it listens.
"""
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402


def main() -> None:
    port = sys.argv[1]
    width, height = (sys.argv[2] if len(sys.argv) > 2 else "320x240").split("x")
    fps = sys.argv[3] if len(sys.argv) > 3 else "25"
    Gst.init(None)
    server = GstRtspServer.RTSPServer()
    server.set_address("127.0.0.1")
    server.set_service(port)
    factory = GstRtspServer.RTSPMediaFactory()
    # One shared media for every client: a reconnecting client joins the running stream.
    factory.set_shared(True)
    factory.set_launch(
        f"( videotestsrc is-live=true pattern=ball ! video/x-raw,width={width},height={height},framerate={fps}/1 "
        "! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=10 ! rtph264pay name=pay0 pt=96 "
        "config-interval=1 )"
    )
    server.get_mount_points().add_factory("/test", factory)
    if server.attach(None) == 0:
        print(f"rtsp-server: cannot listen on 127.0.0.1:{port}", file=sys.stderr, flush=True)
        sys.exit(1)
    print("ready", flush=True)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
