#include "opencv_status.h"

#include <algorithm>
#include <cstring>

void slcv_write_error(char *buffer, size_t capacity, const char *message) {
    if (buffer == nullptr || capacity == 0) return;
    size_t length = message == nullptr ? 0 : std::min(std::strlen(message), capacity - 1);
    for (size_t i = 0; i < length; ++i) {
        char c = message[i];
        buffer[i] = (c == '\n' || c == '\r') ? ' ' : c;
    }
    buffer[length] = '\0';
}
