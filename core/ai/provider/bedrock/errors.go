package bedrock

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
	"github.com/aws/smithy-go"

	"github.com/gopi-agent/gopi/core/ai"
)

// ModelUnavailableError is Bedrock refusing a model id in a region: the id
// is unknown there, the account has no access to it, or it needs an
// inference profile.
type ModelUnavailableError struct {
	Model, Region string
	Status        int    // HTTP status of the refusal
	Reason        string // Bedrock's message
}

func (e *ModelUnavailableError) Error() string {
	fix := "enable it under Model access in the Bedrock console for that region or set AWS_REGION to a region that offers it"
	if p := inferenceProfile(e.Model, e.Region); p != "" {
		fix += fmt.Sprintf(", or use its inference profile id %q", p)
	}
	return fmt.Sprintf("Bedrock model %q is not available in region %s (%s): %s", e.Model, e.Region, strings.TrimRight(e.Reason, "."), fix)
}

// inferenceProfile suggests the cross-region inference profile id of a
// base model id for the region's geography ("us.…" for us-east-1), or ""
// when the id already names a profile or an ARN.
func inferenceProfile(model, region string) string {
	if strings.HasPrefix(model, "arn:") {
		return ""
	}
	if geo, _, ok := strings.Cut(model, "."); ok {
		switch geo {
		case "us", "eu", "apac", "au", "jp", "ca", "global", "us-gov":
			return ""
		}
	}
	geo := "global"
	switch {
	case strings.HasPrefix(region, "us-gov-"):
		geo = "us-gov"
	case strings.HasPrefix(region, "us-"):
		geo = "us"
	case strings.HasPrefix(region, "eu-"):
		geo = "eu"
	case strings.HasPrefix(region, "ap-"):
		geo = "apac"
	}
	return geo + "." + model
}

// CredentialsError is a failure to find or fetch AWS credentials.
type CredentialsError struct {
	Source string // where the chain looked last
	Err    error
}

func (e *CredentialsError) Error() string {
	return fmt.Sprintf("no usable AWS credentials for Bedrock from %s (%v): set AWS_PROFILE (after `aws configure` or `aws sso login`), AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a Bedrock API key in AWS_BEARER_TOKEN_BEDROCK", e.Source, firstLine(e.Err))
}

func (e *CredentialsError) Unwrap() error { return e.Err }

// modelRefusal reports whether an API error says the model id cannot be
// used in this region.
func modelRefusal(code, msg string) bool {
	m := strings.ToLower(msg)
	switch code {
	case "ResourceNotFoundException":
		return strings.Contains(m, "model")
	case "AccessDeniedException":
		return strings.Contains(m, "access to the model") || strings.Contains(m, "model access")
	case "ValidationException":
		return strings.Contains(m, "model identifier is invalid") || strings.Contains(m, "on-demand throughput") ||
			strings.Contains(m, "inference profile") || strings.Contains(m, "not supported in this region")
	}
	return false
}

// mapError turns a ConverseStream call's error into the error the message
// reports: an *ai.HTTPError (status, "Code: message", Retry-After) for a
// refused request, a *ModelUnavailableError, a *CredentialsError, or the
// error itself (cancellation, a stall, a network failure, a hook error).
func mapError(err error, s *session, model string, header http.Header, requestID string) error {
	var he *hookError
	var stall *ai.StallError
	switch {
	case errors.As(err, &he):
		return he.err
	case errors.As(err, &stall):
		return stall
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	var api smithy.APIError
	var re *awshttp.ResponseError
	if errors.As(err, &api) && errors.As(err, &re) {
		status := re.HTTPStatusCode()
		if modelRefusal(api.ErrorCode(), api.ErrorMessage()) {
			return &ModelUnavailableError{Model: model, Region: s.cfg.Region, Status: status, Reason: api.ErrorMessage()}
		}
		msg := api.ErrorCode()
		if m := api.ErrorMessage(); m != "" {
			msg += ": " + m
		}
		return &ai.HTTPError{Status: status, Message: msg, RetryAfter: ai.ParseRetryAfter(header, time.Now()), RequestID: requestID}
	}
	if isCredentialsFailure(err) {
		return &CredentialsError{Source: s.source, Err: err}
	}
	if strings.Contains(err.Error(), "bearer token with HTTP request requires HTTPS") {
		return errors.New("a Bedrock API key is only sent over HTTPS: give an https:// base URL (models.yml or AWS_ENDPOINT_URL_BEDROCK_RUNTIME), or sign with AWS credentials instead of AWS_BEARER_TOKEN_BEDROCK")
	}
	return err
}

// isCredentialsFailure reports whether the SDK failed before sending
// because no credentials could be had.
func isCredentialsFailure(err error) bool {
	msg := err.Error()
	for _, s := range []string{"failed to refresh cached credentials", "failed to retrieve credentials", "no EC2 IMDS role found", "anonymous credentials", "get identity:"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// streamError turns an exception event that ended the stream into the
// message's error. Throttling says "rate limit" so retries treat it as
// transient and the overflow check does not mistake Bedrock's "Too many
// tokens" for a full context.
func streamError(err error) error {
	var (
		throttle    *types.ThrottlingException
		modelStream *types.ModelStreamErrorException
		validation  *types.ValidationException
		internal    *types.InternalServerException
		unavailable *types.ServiceUnavailableException
	)
	switch {
	case errors.As(err, &throttle):
		return &ai.StreamError{Kind: "throttlingException", Message: "rate limit reached: " + throttle.ErrorMessage()}
	case errors.As(err, &modelStream):
		return &ai.StreamError{Kind: "modelStreamErrorException", Message: modelStreamMessage(modelStream)}
	case errors.As(err, &validation):
		return &ai.StreamError{Kind: "validationException", Message: validation.ErrorMessage()}
	case errors.As(err, &internal):
		return &ai.StreamError{Kind: "internalServerException", Message: "internal server error: " + internal.ErrorMessage()}
	case errors.As(err, &unavailable):
		return &ai.StreamError{Kind: "serviceUnavailableException", Message: "service unavailable: " + unavailable.ErrorMessage()}
	}
	var stall *ai.StallError
	if errors.As(err, &stall) {
		return stall
	}
	// A cut connection: its cause (addresses, "unexpected EOF" or a closed
	// connection, depending on timing) says nothing more useful.
	return ai.ErrStreamEnded
}

// firstLine returns the first line of an error's text.
func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// modelStreamMessage describes a model stream error by the status the
// model itself answered with, so a rate limit or an overloaded model
// reads as one (and is retried) while other failures are not.
func modelStreamMessage(e *types.ModelStreamErrorException) string {
	msg := "model stream error: " + e.ErrorMessage()
	if e.OriginalStatusCode == nil {
		return msg
	}
	switch code := *e.OriginalStatusCode; {
	case code == http.StatusTooManyRequests:
		return fmt.Sprintf("%s (rate limit: the model answered %d)", msg, code)
	case code >= 500:
		return fmt.Sprintf("%s (upstream server error: the model answered %d)", msg, code)
	default:
		return fmt.Sprintf("%s (the model answered %d)", msg, code)
	}
}
