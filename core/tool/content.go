package tool

import "github.com/gopi-agent/gopi/core/ai"

// Content is one block of a tool result: *TextContent or *ImageContent.
// Tool results reuse the message model's blocks (core/ai), so a result's
// content goes into a tool-result message unchanged.
type Content = ai.Content

// TextContent is a text block.
type TextContent = ai.TextContent

// ImageContent is an inline image (base64 Data and its MIMEType).
type ImageContent = ai.ImageContent

// Text returns a text block.
func Text(s string) *TextContent { return &TextContent{Text: s} }
