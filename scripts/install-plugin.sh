#!/usr/bin/env bash
# Builds the StreamLens GStreamer plugin (release) and installs libgststreamlens.so where GStreamer looks for a
# user's plugins, so gst-launch-1.0, gst-inspect-1.0 and applications find it without GST_PLUGIN_PATH.
#
# Usage: scripts/install-plugin.sh [FOLDER]              install (default ~/.local/share/gstreamer-1.0/plugins)
#        scripts/install-plugin.sh --uninstall [FOLDER]  remove it again
# The library finds the Swift runtime in the toolchain it was built with (its RUNPATH), so keep that toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."

uninstall=false
if [[ "${1:-}" == "--uninstall" ]]; then
  uninstall=true
  shift
fi
default_folder=${XDG_DATA_HOME:-$HOME/.local/share}/gstreamer-1.0/plugins
folder=${1:-$default_folder}
target="$folder/libgststreamlens.so"

if $uninstall; then
  rm -f "$target"
  echo "install-plugin: removed $target"
  exit 0
fi

swift build -c release --product gststreamlens 2>&1 | tail -n 1
built="$(swift build -c release --show-bin-path)/libgststreamlens.so"
install -D -m 0755 "$built" "$target"
# The registry notices the new file on the next start; check that GStreamer loads the installed copy.
if ! GST_PLUGIN_PATH="$folder" gst-inspect-1.0 "$target" >/dev/null 2>&1; then
  echo "install-plugin: error: GStreamer cannot load $target; run GST_DEBUG=2 gst-inspect-1.0 $target" >&2
  exit 1
fi
echo "install-plugin: installed $target"
if [[ "$folder" == "$default_folder" ]]; then
  echo "install-plugin: try  gst-inspect-1.0 streamlens"
else
  echo "install-plugin: $folder is not searched by default: export GST_PLUGIN_PATH=$folder"
fi
