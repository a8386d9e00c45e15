"""Shared by the privacy test-set builders (datasets/make-privacy-testset.py, datasets/make-plate-testset.py): the
real footage read whole, and the x264 encoder the frames with the pasted photographs go to."""
import subprocess
import sys

import cv2


def read_frames(path, script):
    """Every frame of `path` (BGR); exits with one line naming `script` when it holds fewer than 100."""
    video = cv2.VideoCapture(path)
    frames = []
    while True:
        ok, frame = video.read()
        if not ok:
            break
        frames.append(frame)
    if len(frames) < 100:
        sys.exit(f"{script}: {path} gave {len(frames)} frames")
    return frames


def open_encoder(width, height, output_path):
    """ffmpeg reading BGR frames on its standard input and writing them as bit-exact x264 (crf 16) at 25 fps."""
    return subprocess.Popen(
        ["ffmpeg", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "bgr24", "-s", f"{width}x{height}",
         "-r", "25", "-i", "-", "-c:v", "libx264", "-preset", "medium", "-crf", "16", "-pix_fmt", "yuv420p",
         "-bitexact", "-map_metadata", "-1", output_path],
        stdin=subprocess.PIPE)
