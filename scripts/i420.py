"""RGB frames to raw I420, shared by the sign test-set generators (make-sign-testset.py, make-real-sign-set.py)."""
import numpy as np


def rgb_to_i420(frame):
    """BT.601 limited-range I420 bytes (Y plane, then U, then V at half resolution; odd sizes repeat the edge)."""
    rgb = frame.astype(np.float32)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    y = 16 + 0.257 * r + 0.504 * g + 0.098 * b
    u = 128 - 0.148 * r - 0.291 * g + 0.439 * b
    v = 128 + 0.439 * r - 0.368 * g - 0.071 * b
    h, w = y.shape

    def half(plane):
        padded = np.pad(plane, ((0, h % 2), (0, w % 2)), mode="edge")
        return (padded[0::2, 0::2] + padded[1::2, 0::2] + padded[0::2, 1::2] + padded[1::2, 1::2]) / 4

    planes = [y, half(u), half(v)]
    return b"".join(np.clip(np.round(p), 0, 255).astype(np.uint8).tobytes() for p in planes)
