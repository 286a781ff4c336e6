package config

import (
	"maps"
	"strings"
	"testing"
)

func TestParseDotenv(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want map[string]string
		errs int
	}{
		{"plain", "A=1\nB = two \n", map[string]string{"A": "1", "B": "two"}, 0},
		{"comments and blanks", "# c\n\n  # indented\nA=x # trailing\nB=a#b\n", map[string]string{"A": "x", "B": "a#b"}, 0},
		{"export", "export A=1\nexport\tB=2\nexportC=3\n", map[string]string{"A": "1", "B": "2", "exportC": "3"}, 0},
		{"double quotes", `A="a b # not a comment"` + "\n" + `B="x\ny\t\"q\" \\ \$z \w"`, map[string]string{"A": "a b # not a comment", "B": "x\ny\t\"q\" \\ $z \\w"}, 0},
		{"single quotes", `A='a\nb "c"'` + " # c\n", map[string]string{"A": `a\nb "c"`}, 0},
		{"multi-line", "A=\"one\ntwo\"\nB='x\ny'\nC=3", map[string]string{"A": "one\ntwo", "B": "x\ny", "C": "3"}, 0},
		{"empty values", "A=\nB=\"\"\nC=''", map[string]string{"A": "", "B": "", "C": ""}, 0},
		{"crlf and bom", "\ufeffA=1\r\nB=\"2\"\r\n", map[string]string{"A": "1", "B": "2"}, 0},
		{"later wins", "A=1\nA=2", map[string]string{"A": "2"}, 0},
		{"equals in value", "URL=http://x/?a=b", map[string]string{"URL": "http://x/?a=b"}, 0},
		{"bad lines skipped", "no equals\n1A=x\nB=ok\n=v\n", map[string]string{"B": "ok"}, 3},
		{"unterminated quote", "A=\"open\nB=2\n", map[string]string{"B": "2"}, 1},
		{"text after quote", "A=\"x\" y\nB=1", map[string]string{"B": "1"}, 1},
		{"no expansion", "A=$HOME/${X}", map[string]string{"A": "$HOME/${X}"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, errs := ParseDotenv([]byte(tc.in))
			if !maps.Equal(got, tc.want) || len(errs) != tc.errs {
				t.Errorf("got %q, %v; want %q with %d errors", got, errs, tc.want, tc.errs)
			}
		})
	}
}

func TestParseDotenvErrorNamesLine(t *testing.T) {
	_, errs := ParseDotenv([]byte("A=1\n\njunk\n"))
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), "line 3: expected KEY=VALUE") {
		t.Fatalf("%v", errs)
	}
}

func TestMirrorOMP(t *testing.T) {
	vars := map[string]string{"OMP_X": "omp", "PI_X": "pi", "PI_Y": "y", "OMP_": "bare"}
	mirrorOMP(vars)
	want := map[string]string{"OMP_X": "omp", "PI_X": "omp", "PI_Y": "y", "OMP_": "bare"}
	if !maps.Equal(vars, want) {
		t.Fatalf("%q", vars)
	}
}

// quoteDotenv writes a value so ParseDotenv reads it back unchanged.
func quoteDotenv(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`, "\t", `\t`, "$", `\$`)
	return `"` + r.Replace(v) + `"`
}

// FuzzParseDotenv checks that the parser never panics, accepts only
// valid names, and reads back what a writer produces: any value written
// double-quoted (and, when it has no single quote, single-quoted) after an
// arbitrary file prefix that leaves no quote open.
func FuzzParseDotenv(f *testing.F) {
	f.Add([]byte("A=1\nexport B=\"x\\ny\"\n# c\nC='lit' # c\n"), "K", "v a l")
	f.Add([]byte("A=\"unterminated\nB=2"), "OMP_X", "\"quoted\" $HOME \\n")
	f.Fuzz(func(t *testing.T, data []byte, key, value string) {
		vars, _ := ParseDotenv(data)
		for k := range vars {
			if !validEnvName(k) {
				t.Fatalf("invalid name %q accepted", k)
			}
		}
		if !validEnvName(key) {
			return
		}
		written := "# written\n" + key + "=" + quoteDotenv(value) + "\n"
		if !strings.Contains(value, "'") && !strings.ContainsAny(value, "\n\r") {
			written += "export " + key + "_S = '" + value + "'\n"
		}
		got, errs := ParseDotenv([]byte(written))
		if len(errs) != 0 || got[key] != value {
			t.Fatalf("%q read back as %q (%v)", written, got[key], errs)
		}
		if v, ok := got[key+"_S"]; ok && v != value {
			t.Fatalf("%q read back as %q", written, v)
		}
	})
}
