package lsp

import "github.com/gopi-agent/gopi/core/lsp/edits"

// symbolKinds are all the symbol kinds of LSP 3.17 (File … TypeParameter).
var symbolKinds = func() []int {
	k := make([]int, 26)
	for i := range k {
		k[i] = i + 1
	}
	return k
}()

// clientCapabilities is what gopi tells a server it can do. Positions are
// offered in UTF-16 only (the LSP default), which every server speaks;
// documents are synchronised as whole texts; progress reports are
// accepted so that project loading can be followed.
var clientCapabilities = map[string]any{
	"general": map[string]any{
		"positionEncodings": []string{"utf-16"},
	},
	"textDocument": map[string]any{
		"synchronization": map[string]any{"didSave": true, "dynamicRegistration": false, "willSave": false, "willSaveWaitUntil": false},
		"hover":           map[string]any{"contentFormat": []string{"markdown", "plaintext"}, "dynamicRegistration": false},
		"definition":      map[string]any{"dynamicRegistration": false, "linkSupport": true},
		"typeDefinition":  map[string]any{"dynamicRegistration": false, "linkSupport": true},
		"implementation":  map[string]any{"dynamicRegistration": false, "linkSupport": true},
		"references":      map[string]any{"dynamicRegistration": false},
		"documentSymbol": map[string]any{
			"dynamicRegistration":               false,
			"hierarchicalDocumentSymbolSupport": true,
			"symbolKind":                        map[string]any{"valueSet": symbolKinds},
		},
		"rename": map[string]any{"dynamicRegistration": false, "prepareSupport": true},
		"codeAction": map[string]any{
			"dynamicRegistration": false,
			"codeActionLiteralSupport": map[string]any{"codeActionKind": map[string]any{"valueSet": []string{
				"quickfix", "refactor", "refactor.extract", "refactor.inline", "refactor.rewrite",
				"source", "source.organizeImports", "source.fixAll",
			}}},
			"resolveSupport": map[string]any{"properties": []string{"edit"}},
		},
		"formatting":      map[string]any{"dynamicRegistration": false},
		"rangeFormatting": map[string]any{"dynamicRegistration": false},
		"publishDiagnostics": map[string]any{
			"relatedInformation":     true,
			"versionSupport":         true,
			"tagSupport":             map[string]any{"valueSet": []int{1, 2}},
			"codeDescriptionSupport": true,
			"dataSupport":            true,
		},
	},
	"window": map[string]any{"workDoneProgress": true},
	"workspace": map[string]any{
		"applyEdit":        true,
		"workspaceEdit":    edits.Capabilities(),
		"configuration":    true,
		"workspaceFolders": true,
		"symbol": map[string]any{
			"dynamicRegistration": false,
			"symbolKind":          map[string]any{"valueSet": symbolKinds},
		},
		"fileOperations": map[string]any{
			"dynamicRegistration": false,
			"willRename":          true,
			"didRename":           true,
		},
	},
}
