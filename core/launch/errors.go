package launch

// Stage names the step of building a session that failed.
type Stage string

// The steps of Open and SessionOptions.
const (
	StageModels  Stage = "models"  // loading the model registry
	StageModel   Stage = "model"   // resolving the requested model(s)
	StageStore   Stage = "store"   // finding or opening the stored session
	StageSession Stage = "session" // building the session runtime
)

// Error is a failure of Open or SessionOptions: which step failed and
// why. Its text is the cause's, so the command line shows it as is; other
// front ends (ACP) word it by the step.
type Error struct {
	Stage Stage
	Err   error
}

// Error returns the cause's text.
func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// fail wraps err as a failure of stage (nil stays nil).
func fail(stage Stage, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Stage: stage, Err: err}
}
