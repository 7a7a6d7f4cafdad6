// Text meant for a terminal: the text report and the CLI's messages print names and lines that come
// from the input (folder names, kernel lines, log text), so an input byte must never act on the
// terminal or forge a line of the report.
#pragma once
#include <string>
#include <string_view>

namespace ilint {

// `s` with every control character escaped as a compiler prints it: C0 controls but the tab
// ("\x1b", "\n" as "\x0a"), DEL ("\x7f"), C1 controls (U+0080-U+009F: "\u009b" is a CSI to some
// terminals), and the bidirectional formatting characters that reorder what is shown (U+061C,
// U+200E-U+200F, U+202A-U+202E, U+2066-U+2069: "\u202e"). Invalid UTF-8 bytes are escaped too.
std::string terminal_safe(std::string_view s);

}  // namespace ilint
