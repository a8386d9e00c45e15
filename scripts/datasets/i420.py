"""RGB frames to raw I420 and back, shared by the sign test-set generators (make-sign-testset.py,
make-real-sign-set.py) and show-sign-misses.py."""
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


def i420_to_rgb(data, width, height):
    """An RGB array of I420 bytes (BT.601, limited range, as rgb_to_i420 writes them; odd sizes round chroma up)."""
    chroma_width, chroma_height = (width + 1) // 2, (height + 1) // 2
    luma_bytes, chroma_bytes = width * height, chroma_width * chroma_height
    frame = np.frombuffer(data, dtype=np.uint8, count=luma_bytes + 2 * chroma_bytes)
    y = frame[:luma_bytes].reshape(height, width).astype(np.float32)

    def full(plane):
        return plane.reshape(chroma_height, chroma_width).repeat(2, axis=0).repeat(2, axis=1)[:height, :width]

    u = full(frame[luma_bytes:luma_bytes + chroma_bytes]).astype(np.float32) - 128
    v = full(frame[luma_bytes + chroma_bytes:]).astype(np.float32) - 128
    luma = 1.164 * (y - 16)
    rgb = np.stack([luma + 1.596 * v, luma - 0.392 * u - 0.813 * v, luma + 2.017 * u], axis=-1)
    return np.clip(rgb + 0.5, 0, 255).astype(np.uint8)
