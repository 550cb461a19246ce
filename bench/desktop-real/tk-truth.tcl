# Runs one of Debian's Tk demo programs (tk8.6-doc, e.g. /usr/share/doc/tk8.6-doc/demos/rolodex) unchanged, with
# the bench's variant applied through Tk's own option database, and reports what the program itself sees:
#   wish tk-truth.tcl <demo> <truth-file> [geometry] [palette] [font]
# The truth file gets one line per mouse press, naming the widget Tk delivered it to (`press .buttons.add`), and
# one line per changed entry value (`entry .frame.entry1 Ada`). Stdout gets the screen centre of every widget
# (`widget .buttons.add 212 301`), then `ready`. The demo's own code is not touched.
set demo [lindex $argv 0]
set truthFile [lindex $argv 1]
set geometry [lindex $argv 2]
set palette [lindex $argv 3]
set font [lindex $argv 4]
set argv {}
set argc 0
set truth [open $truthFile a]
fconfigure $truth -buffering line -encoding utf-8
if {$palette ne ""} { tk_setPalette $palette }
if {$font ne ""} { option add *font $font }
source $demo
if {![winfo exists .]} { exit 0 }
if {$geometry ne ""} { wm geometry . $geometry }
bind all <ButtonPress-1> {+puts $::truth "press %W"}
proc allWidgets {w} {
  set out [list $w]
  foreach c [winfo children $w] { lappend out {*}[allWidgets $c] }
  return $out
}
set lastValues [dict create]
proc watchEntries {} {
  global truth lastValues
  if {![winfo exists .]} return
  foreach w [allWidgets .] {
    if {[winfo class $w] ne "Entry"} continue
    set v [$w get]
    if {![dict exists $lastValues $w] || [dict get $lastValues $w] ne $v} {
      dict set lastValues $w $v
      puts $truth "entry $w $v"
    }
  }
  after 50 watchEntries
}
watchEntries
update
foreach w [allWidgets .] {
  if {![winfo ismapped $w]} continue
  puts "widget $w [expr {[winfo rootx $w] + [winfo width $w] / 2}] [expr {[winfo rooty $w] + [winfo height $w] / 2}]"
}
puts ready
flush stdout
