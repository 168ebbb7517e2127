// SPDX-License-Identifier: Apache-2.0
#pragma once
// Writing a file that another program may read at any moment (node_exporter's textfile
// collector, a health check): the text goes to a temporary file in the same directory,
// which then replaces `path` by rename(2), so a reader sees the old file or the new one,
// never a partial one.
#include <string>
#include <string_view>

namespace gpuconform {

// Throws std::runtime_error naming `path` and the system's reason when it cannot.
void write_file_atomically(const std::string& path, std::string_view text);

}  // namespace gpuconform
