// Whether a text spells a code name out in words: `ROWS_PER_PROG` in "two
// rows per program", `CTAS_PER_SM` in "CTAs per SM". An account that names a
// setting this way names it, even where the lever vocabulary maps the words
// to another lever (issue 25: a strategy's `change` said `ROWS_PER_PROG` was
// "not named" by an account that named it in words).
//
//   levers::spells_out("ROWS_PER_PROG", "packs two rows per program") == true
//   levers::spells_out("BLOCK_N", "a wider block")                    == false  // one word is no spelling
#pragma once

#include <string_view>

namespace otm::levers {

// True when the name's words (split at `_` and lower-to-upper case changes;
// single letters and "num" dropped), at least two of them, appear in the
// text as consecutive words, each the same as or an abbreviation of the
// text's word ("prog" for "program", "row" for "rows").
bool spells_out(std::string_view code_name, std::string_view text);

} // namespace otm::levers
