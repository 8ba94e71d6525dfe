// The brief a distilling agent receives (docs/distill-brief.md, compiled in
// at configure time so every agent gets the project's own text).
#pragma once

namespace otm::distill {

const char *distill_brief_text();

} // namespace otm::distill
