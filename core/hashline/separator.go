package hashline

// DefaultEditSeparator marks a payload line in the edit language: `~TEXT`.
// The configuration may choose another one (PI_HL_SEP, read by
// core/config and passed to the edit tool in its settings).
const DefaultEditSeparator = "~"
