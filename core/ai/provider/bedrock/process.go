package bedrock

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// processOutput is what a credential_process prints (version 1).
type processOutput struct {
	Version         int    `json:"Version"`
	AccessKeyID     string `json:"AccessKeyId"`
	SecretAccessKey string `json:"SecretAccessKey"`
	SessionToken    string `json:"SessionToken"`
	Expiration      string `json:"Expiration"` // RFC 3339; empty: does not expire
}

// runCredentialProcess runs a profile's credential_process through the
// shell, within timeout (ending its process group), and reads the keys it
// prints. Its standard
// output holds secrets and never appears in an error.
func runCredentialProcess(ctx context.Context, command string, timeout time.Duration) (credentials, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var cmd *exec.Cmd
	if runtime.GOOS == "windows" {
		cmd = exec.CommandContext(ctx, "cmd.exe", "/C", command)
	} else {
		cmd = exec.CommandContext(ctx, "/bin/sh", "-c", command)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	childproc.PrepareCancelGroup(cmd) // a timeout ends the shell and what it started
	// Where a child of the shell outlives it (no process groups), stop
	// waiting for the pipes it holds soon after.
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return credentials{}, fmt.Errorf("credential_process did not finish within %s", timeout)
		}
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		if msg != "" {
			return credentials{}, fmt.Errorf("credential_process failed: %v: %s", err, msg)
		}
		return credentials{}, fmt.Errorf("credential_process failed: %v", err)
	}
	return parseProcessOutput(stdout.Bytes())
}

// parseProcessOutput reads credential_process output.
func parseProcessOutput(data []byte) (credentials, error) {
	var out processOutput
	if err := json.Unmarshal(data, &out); err != nil {
		return credentials{}, errors.New("credential_process printed something that is not its JSON credentials")
	}
	if out.Version != 1 {
		return credentials{}, fmt.Errorf("credential_process printed Version %d, want 1", out.Version)
	}
	if out.AccessKeyID == "" || out.SecretAccessKey == "" {
		return credentials{}, errors.New("credential_process printed no AccessKeyId or SecretAccessKey")
	}
	c := credentials{AccessKeyID: out.AccessKeyID, SecretAccessKey: out.SecretAccessKey, SessionToken: out.SessionToken}
	if out.Expiration != "" {
		t, err := time.Parse(time.RFC3339, out.Expiration)
		if err != nil {
			return credentials{}, fmt.Errorf("credential_process printed an Expiration that is not an RFC 3339 time: %q", out.Expiration)
		}
		c.Expires = t
	}
	return c, nil
}
