package tool

// InternalResources serves internal URL schemes whose content the session
// owns rather than the tools: skill:// and rule://. The read tool asks it
// first for any internal URL.
type InternalResources interface {
	// ReadInternal returns the text behind url (without a line selector)
	// and the file it came from ("" when none). served is false when the
	// scheme is not one it serves; err is then nil.
	ReadInternal(url string) (content, file string, served bool, err error)
	// InternalFile returns the file behind url, for tools that work on
	// paths (search, bash); served is false as for ReadInternal.
	InternalFile(url string) (file string, served bool, err error)
}

// internalResources holds an Env's InternalResources (set while tools may
// be reading it).
type internalResources struct{ r InternalResources }

// SetInternalResources installs the session's internal-URL server (nil
// removes it).
func (e *Env) SetInternalResources(r InternalResources) {
	if r == nil {
		e.internal.Store(nil)
		return
	}
	e.internal.Store(&internalResources{r})
}

// InternalResources returns the internal-URL server, or nil.
func (e *Env) InternalResources() InternalResources {
	if p := e.internal.Load(); p != nil {
		return p.r
	}
	return nil
}

// InternalFile resolves an internal URL the session serves to its backing
// file; served is false when no InternalResources serves it.
func (e *Env) InternalFile(url string) (file string, served bool, err error) {
	r := e.InternalResources()
	if r == nil {
		return "", false, nil
	}
	return r.InternalFile(url)
}
