// Where a forward pass of the speed-limit reader's text-line network goes, layer by layer, as OpenCV 4.6 runs it
// (figures: docs/figures/performance.md). Build and run by hand:
//
//   g++ -O2 Benchmarks/TextLineLayers/text_line_layers.cpp -o /tmp/text_line_layers $(pkg-config --cflags --libs opencv4)
//   /tmp/text_line_layers /usr/local/share/streamlens/text-line-48x80.onnx [threads] [passes]
//
// Prints the mean wall time of a forward pass on a random 1 x 3 x 48 x 80 input, the time per layer type and the
// slowest layers. Threads: 1 by default (the reader's lane shares two cores with the video).
#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s MODEL.onnx [threads] [passes]\n", argv[0]);
        return 2;
    }
    cv::setNumThreads(argc > 2 ? std::atoi(argv[2]) : 1);
    const int passes = argc > 3 ? std::max(1, std::atoi(argv[3])) : 50;
    cv::dnn::Net net = cv::dnn::readNetFromONNX(argv[1]);
    const int shape[] = {1, 3, 48, 80};
    cv::Mat input(4, shape, CV_32F);
    cv::randu(input, -1, 1);
    // The first passes allocate and fuse; they are not measured.
    for (int pass = 0; pass < 5; ++pass) {
        net.setInput(input);
        net.forward();
    }
    const std::vector<std::string> names = net.getLayerNames();
    // getPerfProfile gives one time per layer, in the order of getLayerNames (the input layer in neither).
    std::vector<double> layerTicks(names.size(), 0), passTicks;
    const int64 started = cv::getTickCount();
    for (int pass = 0; pass < passes; ++pass) {
        net.setInput(input);
        net.forward();
        net.getPerfProfile(passTicks);
        for (size_t layer = 0; layer < passTicks.size() && layer < layerTicks.size(); ++layer) {
            layerTicks[layer] += passTicks[layer];
        }
    }
    const double ticksPerMs = cv::getTickFrequency() / 1000.0;
    std::printf("forward pass: %.2f ms (mean of %d)\n", (cv::getTickCount() - started) / ticksPerMs / passes, passes);

    std::map<std::string, double> byType;
    std::vector<std::pair<double, std::string>> byLayer;
    for (size_t layer = 0; layer < names.size(); ++layer) {
        const std::string type = net.getLayer(net.getLayerId(names[layer]))->type;
        const double ms = layerTicks[layer] / ticksPerMs / passes;
        byType[type] += ms;
        byLayer.emplace_back(ms, names[layer] + " (" + type + ")");
    }
    std::vector<std::pair<double, std::string>> types;
    for (const auto &[type, ms] : byType) types.emplace_back(ms, type);
    std::sort(types.rbegin(), types.rend());
    std::sort(byLayer.rbegin(), byLayer.rend());
    std::printf("by layer type:\n");
    for (const auto &[ms, type] : types) {
        if (ms >= 0.005) std::printf("  %-14s %6.2f ms\n", type.c_str(), ms);
    }
    std::printf("slowest layers:\n");
    for (size_t index = 0; index < byLayer.size() && index < 15; ++index) {
        std::printf("  %6.3f ms  %s\n", byLayer[index].first, byLayer[index].second.c_str());
    }
    return 0;
}
