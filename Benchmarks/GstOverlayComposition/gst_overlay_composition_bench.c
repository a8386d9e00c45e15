// The same scenario as CompositingBenchmark (one 384×384 and two 128×128 soft-edged discs, premultiplied ARGB,
// blended onto a 1920×1080 I420 or NV12 frame), drawn with GStreamer's own GstVideoOverlayComposition: the
// alternative to StreamLens's TileBlender. Build and run with run.sh.
#include <gst/gst.h>
#include <gst/video/video.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void) {
    struct timespec spec;
    clock_gettime(CLOCK_MONOTONIC, &spec);
    return spec.tv_sec * 1e3 + spec.tv_nsec / 1e6;
}

// A disc with a soft edge as a premultiplied BGRA (native ARGB32) buffer with video meta, as the API requires.
static GstVideoOverlayRectangle *disc_rectangle(int size, int x, int y, guint8 red, guint8 green, guint8 blue) {
    GstBuffer *buffer = gst_buffer_new_allocate(NULL, (gsize)size * size * 4, NULL);
    GstMapInfo map;
    gst_buffer_map(buffer, &map, GST_MAP_WRITE);
    double centre = size / 2.0, radius = size / 2.0 - 2;
    for (int row = 0; row < size; row++) {
        for (int column = 0; column < size; column++) {
            double dx = column + 0.5 - centre, dy = row + 0.5 - centre;
            double coverage = fmax(0, fmin(1, radius - sqrt(dx * dx + dy * dy) + 0.5));
            guint32 a = (guint32)lround(coverage * 255);
            guint32 pixel = a << 24 | (red * a / 255) << 16 | (green * a / 255) << 8 | (blue * a / 255);
            ((guint32 *)map.data)[row * size + column] = pixel;
        }
    }
    gst_buffer_unmap(buffer, &map);
    gst_buffer_add_video_meta(buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_OVERLAY_COMPOSITION_FORMAT_RGB, size, size);
    GstVideoOverlayRectangle *rectangle = gst_video_overlay_rectangle_new_raw(
        buffer, x, y, size, size, GST_VIDEO_OVERLAY_FORMAT_FLAG_PREMULTIPLIED_ALPHA);
    gst_buffer_unref(buffer);
    return rectangle;
}

static int compare(const void *a, const void *b) {
    double left = *(const double *)a, right = *(const double *)b;
    return (left > right) - (left < right);
}

static void run(GstVideoFormat format, const char *label, int iterations) {
    GstVideoInfo info;
    gst_video_info_set_format(&info, format, 1920, 1080);
    GstBuffer *buffer = gst_buffer_new_allocate(NULL, info.size, NULL);
    gst_buffer_memset(buffer, 0, 100, info.size);
    GstVideoOverlayRectangle *logo = disc_rectangle(384, 100, 100, 40, 160, 230);
    GstVideoOverlayRectangle *badge_a = disc_rectangle(128, 1600, 80, 230, 40, 40);
    GstVideoOverlayRectangle *badge_b = disc_rectangle(128, 1600, 800, 250, 250, 250);
    GstVideoOverlayComposition *composition = gst_video_overlay_composition_new(logo);
    gst_video_overlay_composition_add_rectangle(composition, badge_a);
    gst_video_overlay_composition_add_rectangle(composition, badge_b);
    double *samples = malloc(sizeof(double) * iterations);
    for (int i = -50; i < iterations; i++) {
        GstVideoFrame frame;
        double start = now_ms();
        gst_video_frame_map(&frame, &info, buffer, GST_MAP_READWRITE);
        gst_video_overlay_composition_blend(composition, &frame);
        gst_video_frame_unmap(&frame);
        if (i >= 0) samples[i] = now_ms() - start;
    }
    qsort(samples, iterations, sizeof(double), compare);
    double sum = 0;
    for (int i = 0; i < iterations; i++) sum += samples[i];
    printf("GstVideoOverlayComposition %s 3 rectangles (384² + 2×128²): median %.3f ms, mean %.3f ms, p99 %.3f ms\n",
           label, samples[iterations / 2], sum / iterations, samples[iterations * 99 / 100]);
    free(samples);
    gst_video_overlay_composition_unref(composition);
    gst_video_overlay_rectangle_unref(logo);
    gst_video_overlay_rectangle_unref(badge_a);
    gst_video_overlay_rectangle_unref(badge_b);
    gst_buffer_unref(buffer);
}

int main(int argc, char **argv) {
    gst_init(&argc, &argv);
    int iterations = argc > 1 ? atoi(argv[1]) : 500;
    run(GST_VIDEO_FORMAT_I420, "i420", iterations);
    run(GST_VIDEO_FORMAT_NV12, "nv12", iterations);
    return 0;
}
