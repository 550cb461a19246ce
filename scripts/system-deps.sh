#!/bin/sh
# Installs the Debian packages the project's real parts need, when they are missing.
#   scripts/system-deps.sh demo   Chromium (the web demo, `qa record web`, `qa replay`)
#   scripts/system-deps.sh test   everything the full test suite uses: Chromium, Xvfb + xdotool (desktop
#                                 e2e), Tk's wish (a real X11 program with a keypad and a text field for the
#                                 desktop e2e), xclip (Hangul typed by clipboard paste), Redis (queue),
#                                 Tesseract English/Korean data, a CJK font (Hangul), and the real Debian programs
#                                 of bench/desktop-real (Tk's demos, zenity for GTK 3, kdialog for Qt 5, FLTK's sudoku; xmessage
#                                 comes with x11-utils) and the games of bench/games (LBreakout2 and LMarbles on SDL 1.2,
#                                 GNOME Mines and Iagno on GTK 3, KMines on Qt 5 under dbus-run-session)
set -eu
profile=${1:-test}
case "$profile" in
  demo) packages="chromium fonts-noto-cjk" ;;
  test) packages="chromium xvfb xauth xdotool x11-utils tk xclip redis-server tesseract-ocr-eng tesseract-ocr-kor fonts-noto-cjk tk8.6-doc zenity kdialog fltk1.3-games lbreakout2 lmarbles gnome-mines iagno kmines dbus-daemon" ;;
  *) echo "usage: $0 demo|test" >&2; exit 2 ;;
esac

missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "These system packages are needed:$missing" >&2
  echo "Install them with your package manager (this script knows Debian/Ubuntu apt-get)." >&2
  exit 2
fi
if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
  echo "Need root to install:$missing (run as root, or install them yourself)." >&2
  exit 2
fi
echo "Installing system packages:$missing"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
