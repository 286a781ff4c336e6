package bedrock

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// signingName is the SigV4 service name of the Bedrock runtime.
const signingName = "bedrock"

// sign adds a SigV4 signature of hr (method, escaped path, headers and a
// SHA-256 of its body) for region at now, and the session token when
// there is one.
func sign(ctx context.Context, hr *http.Request, c credentials, region string, now time.Time) error {
	var body []byte
	if hr.GetBody != nil {
		rc, err := hr.GetBody()
		if err != nil {
			return fmt.Errorf("read the request body to sign it: %w", err)
		}
		body, err = io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return fmt.Errorf("read the request body to sign it: %w", err)
		}
	}
	sum := sha256.Sum256(body)
	creds := aws.Credentials{AccessKeyID: c.AccessKeyID, SecretAccessKey: c.SecretAccessKey, SessionToken: c.SessionToken}
	if err := v4.NewSigner().SignHTTP(ctx, creds, hr, hex.EncodeToString(sum[:]), signingName, region, now); err != nil {
		return fmt.Errorf("sign the Bedrock request: %w", err)
	}
	return nil
}
