package bedrock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// maxProfileFile bounds the shared AWS files read.
const maxProfileFile = 1 << 20

// loadProfile returns the settings of one profile from the shared config
// file ("[profile NAME]", "[default]") and credentials file ("[NAME]"),
// the credentials file winning for a key set in both; found reports
// whether either file has the profile. Missing files are empty.
func loadProfile(configFile, credentialsFile, name string) (prof map[string]string, found bool, err error) {
	prof = map[string]string{}
	for _, f := range []struct {
		path, section string
	}{
		{configFile, configSection(name)},
		{credentialsFile, name},
	} {
		if f.path == "" {
			continue
		}
		data, err := os.ReadFile(f.path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, false, fmt.Errorf("read the AWS file %s: %w (fix its permissions, or point AWS_CONFIG_FILE / AWS_SHARED_CREDENTIALS_FILE elsewhere)", f.path, err)
		}
		if len(data) > maxProfileFile {
			return nil, false, fmt.Errorf("the AWS file %s is larger than %d bytes: is it the right file?", f.path, maxProfileFile)
		}
		if sec, ok := parseINI(string(data))[f.section]; ok {
			found = true
			for k, v := range sec {
				prof[k] = v
			}
		}
	}
	return prof, found, nil
}

// configSection is a profile's section name in the config file.
func configSection(name string) string {
	if name == "default" {
		return "default"
	}
	return "profile " + name
}

// parseINI parses the shared AWS files' INI dialect: "[section]" headers,
// "key = value" lines, comments starting with # or ;, and indented lines
// below a key with no value (nested settings such as s3's), which are
// skipped. Keys are lower-cased; a later duplicate wins. Lines it does not
// understand are ignored, as the AWS CLI ignores them.
func parseINI(text string) map[string]map[string]string {
	out := map[string]map[string]string{}
	var cur map[string]string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		nested := line != "" && (line[0] == ' ' || line[0] == '\t')
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' || nested {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				cur = nil
				continue
			}
			name := strings.Join(strings.Fields(line[1:end]), " ")
			if out[name] == nil {
				out[name] = map[string]string{}
			}
			cur = out[name]
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || cur == nil {
			continue
		}
		cur[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
	}
	return out
}
