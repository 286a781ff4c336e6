package mcptest

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ManyTools is how many tools the "many" mode serves.
const ManyTools = 200

// manyVerbs and manyNouns make ManyTools distinct tool names and
// descriptions of the length real servers' tools have.
var (
	manyVerbs = []string{"list", "get", "create", "update", "delete", "search", "export", "import", "archive", "restore"}
	manyNouns = []string{"issue", "pull_request", "branch", "pod", "deployment", "ticket", "invoice", "customer", "dashboard", "alert",
		"bucket", "table", "query", "channel", "message", "calendar_event", "document", "pipeline", "secret", "user"}
)

// newManyServer serves ManyTools tools named <verb>_<noun>, each with a
// sentence of description and three input properties; every call
// answers with the tool's name.
func newManyServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "many", Version: "1.0"}, nil)
	type in struct {
		ID     string `json:"id" jsonschema:"identifier of the object"`
		Filter string `json:"filter,omitempty" jsonschema:"filter expression, e.g. state:open"`
		Limit  int    `json:"limit,omitempty" jsonschema:"maximum number of results"`
	}
	for i := range ManyTools {
		verb, noun := manyVerbs[i%len(manyVerbs)], manyNouns[i/len(manyVerbs)]
		name := verb + "_" + noun
		desc := fmt.Sprintf("%s the %s objects of the workspace you are connected to. Use it to %s a %s by id, or several at once with a filter; results are paged.",
			verb, noun, verb, noun)
		sdk.AddTool(s, &sdk.Tool{Name: name, Description: desc}, func(context.Context, *sdk.CallToolRequest, in) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "called " + name}}}, nil, nil
		})
	}
	return s
}
