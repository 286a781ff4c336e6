package bedrock

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

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
	return fmt.Sprintf("no usable AWS credentials for Bedrock from %s (%v): set AWS_PROFILE (a profile with keys or a credential_process, after `aws configure`), AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a Bedrock API key in AWS_BEARER_TOKEN_BEDROCK", e.Source, firstLine(e.Err))
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

// responseError turns a refused request (a non-2xx answer with a REST-JSON
// error: the exception name in x-amzn-ErrorType, {"message": …} as the
// body) into a *ModelUnavailableError or an *ai.HTTPError
// ("ThrottlingException: …", with the Retry-After hint). It closes no
// body; the caller does.
func responseError(resp *http.Response, region, model, requestID string) error {
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var body exceptionPayload
	_ = json.Unmarshal(data, &body)
	code := errorCode(resp.Header.Get("X-Amzn-Errortype"), body.Type)
	msg := body.text()
	if modelRefusal(code, msg) {
		return &ModelUnavailableError{Model: model, Region: region, Status: resp.StatusCode, Reason: msg}
	}
	text := code
	switch {
	case text == "" && msg == "":
		text = http.StatusText(resp.StatusCode)
	case text == "":
		text = msg
	case msg != "":
		text += ": " + msg
	}
	return &ai.HTTPError{Status: resp.StatusCode, Message: text, RetryAfter: ai.ParseRetryAfter(resp.Header, time.Now()),
		RequestID: requestID, Body: data, Header: resp.Header.Clone()}
}

// errorCode returns the exception name of a refusal from the
// x-amzn-ErrorType header ("ThrottlingException:http://…") or the body's
// __type ("com.amazon…#ThrottlingException").
func errorCode(header, bodyType string) string {
	code := header
	if code == "" {
		code = bodyType
	}
	code, _, _ = strings.Cut(code, ":")
	if i := strings.LastIndexByte(code, '#'); i >= 0 {
		code = code[i+1:]
	}
	return strings.TrimSpace(code)
}

// streamException is an exception message that ended the event stream:
// its :exception-type and payload.
type streamException struct {
	Kind    string
	Payload exceptionPayload
}

func (e *streamException) Error() string { return e.Kind + ": " + e.Payload.text() }

// streamError turns an error that ended the stream into the message's
// error. Throttling says "rate limit" so retries treat it as transient and
// the overflow check does not mistake Bedrock's "Too many tokens" for a
// full context.
func streamError(err error) error {
	var stall *ai.StallError
	if errors.As(err, &stall) {
		return stall
	}
	var ex *streamException
	if !errors.As(err, &ex) {
		// A cut connection or a damaged frame: its cause (addresses,
		// "unexpected EOF", a checksum) says nothing more useful.
		return ai.ErrStreamEnded
	}
	msg := ex.Payload.text()
	switch ex.Kind {
	case "throttlingException":
		msg = "rate limit reached: " + msg
	case "modelStreamErrorException":
		msg = modelStreamMessage(ex.Payload)
	case "internalServerException":
		msg = "internal server error: " + msg
	case "serviceUnavailableException":
		msg = "service unavailable: " + msg
	}
	return &ai.StreamError{Kind: ex.Kind, Message: msg}
}

// firstLine returns the first line of an error's text.
func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// modelStreamMessage describes a model stream error by the status the
// model itself answered with, so a rate limit or an overloaded model
// reads as one (and is retried) while other failures are not.
func modelStreamMessage(e exceptionPayload) string {
	msg := "model stream error: " + e.text()
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
