package read

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

func totalAlloc() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.TotalAlloc
}

// buildZip returns a zip archive holding files (deflated, in name order).
func buildZip(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(files[n]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const wordNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`

// docxXML wraps paragraphs in a word/document.xml.
func docxXML(body string) string {
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ` + wordNS + `><w:body>` + body + `</w:body></w:document>`
}

// writeDoc writes data to name in env's working directory.
func writeDoc(t *testing.T, env *tool.Env, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(env.Cwd, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func plainEnv(t *testing.T) *tool.Env {
	env := tool.NewEnv(t.TempDir())
	env.Settings.ReadLineNumbers = false
	return env
}

func TestReadDocx(t *testing.T) {
	t.Parallel()
	env := plainEnv(t)
	body := `<w:p><w:pPr><w:pStyle w:val="Title"/></w:pPr><w:r><w:t>Quarterly report</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="Heading2"/><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr><w:r><w:t>Summary</w:t></w:r></w:p>
<w:p><w:r><w:t xml:space="preserve">Sales went </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>up</w:t></w:r><w:r><w:tab/><w:t>again.</w:t></w:r></w:p>
<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>first point</w:t></w:r></w:p>
<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Region</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Total</w:t></w:r></w:p></w:tc></w:tr>
<w:tr><w:tc><w:p><w:r><w:t>North</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>12</w:t></w:r></w:p><w:p><w:r><w:t>(est.)</w:t></w:r></w:p></w:tc></w:tr></w:tbl>
<w:p><w:r><w:t>The end.</w:t></w:r></w:p>`
	writeDoc(t, env, "report.docx", buildZip(t, map[string]string{"word/document.xml": docxXML(body), "[Content_Types].xml": "<Types/>"}))
	want := "# Quarterly report\n## Summary\nSales went up\tagain.\n- first point\n| Region | Total |\n| --- | --- |\n| North | 12 (est.) |\n\nThe end."
	if got := call(t, env, "report.docx").FirstText(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if got := call(t, env, "report.docx:3-3").FirstText(); !strings.HasPrefix(got, "## Summary\nSales went up") {
		t.Fatalf("range: %q", got)
	}
}

func TestReadXlsx(t *testing.T) {
	t.Parallel()
	env := plainEnv(t)
	files := map[string]string{
		"xl/workbook.xml": `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>
<sheet name="Totals" sheetId="1" r:id="rId2"/><sheet name="Empty" sheetId="2" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Target="worksheets/sheet2.xml"/><Relationship Id="rId2" Target="/xl/worksheets/sheet1.xml"/></Relationships>`,
		"xl/sharedStrings.xml": `<sst><si><t>Name</t></si><si><t>Score</t></si><si><r><t>Ada</t></r><r><t xml:space="preserve"> L.</t></r></si></sst>`,
		"xl/worksheets/sheet1.xml": `<worksheet><sheetData>
<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>
<row r="2"><c r="A2" t="s"><v>2</v></c><c r="C2"><f>SUM(1,2)</f><v>3</v></c></row>
<row r="3"><c r="A3" t="inlineStr"><is><t>Bob</t></is></c><c r="B3" t="b"><v>1</v></c></row></sheetData></worksheet>`,
		"xl/worksheets/sheet2.xml": `<worksheet><sheetData/></worksheet>`,
	}
	writeDoc(t, env, "scores.xlsx", buildZip(t, files))
	want := "## Sheet: Totals\n\n| Name | Score |  |\n| --- | --- | --- |\n| Ada L. |  | 3 |\n| Bob | TRUE |  |\n\n## Sheet: Empty\n\n(empty sheet)"
	if got := call(t, env, "scores.xlsx").FirstText(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestReadPptx(t *testing.T) {
	t.Parallel()
	env := plainEnv(t)
	slide := func(texts ...string) string {
		var b strings.Builder
		b.WriteString(`<p:sld xmlns:p="p" xmlns:a="a"><p:cSld><p:spTree>`)
		for _, s := range texts {
			b.WriteString(`<p:sp><p:txBody><a:p><a:r><a:t>` + s + `</a:t></a:r></a:p></p:txBody></p:sp>`)
		}
		b.WriteString(`</p:spTree></p:cSld></p:sld>`)
		return b.String()
	}
	files := map[string]string{
		"ppt/presentation.xml":            `<p:presentation xmlns:p="p" xmlns:r="r"><p:sldIdLst><p:sldId id="256" r:id="rId7"/><p:sldId id="257" r:id="rId3"/></p:sldIdLst></p:presentation>`,
		"ppt/_rels/presentation.xml.rels": `<Relationships><Relationship Id="rId3" Target="slides/slide1.xml"/><Relationship Id="rId7" Target="slides/slide2.xml"/></Relationships>`,
		"ppt/slides/slide1.xml":           slide("Second in order"),
		"ppt/slides/slide2.xml":           slide("Opening", "with two boxes"),
	}
	writeDoc(t, env, "deck.pptx", buildZip(t, files))
	want := "## Slide 1\n\nOpening\nwith two boxes\n\n## Slide 2\n\nSecond in order"
	if got := call(t, env, "deck.pptx").FirstText(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestReadEpub(t *testing.T) {
	t.Parallel()
	env := plainEnv(t)
	files := map[string]string{
		"mimetype":               "application/epub+zip",
		"META-INF/container.xml": `<container><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
		"OEBPS/content.opf": `<package><metadata><dc:title xmlns:dc="dc">A Small Book</dc:title></metadata>
<manifest><item id="c1" href="text/one.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="text/two%20b.xhtml" media-type="application/xhtml+xml"/></manifest>
<spine><itemref idref="c2"/><itemref idref="c1"/></spine></package>`,
		"OEBPS/text/one.xhtml":   `<html><body><h2>Chapter Two</h2><p>The <em>end</em>.</p></body></html>`,
		"OEBPS/text/two b.xhtml": `<html><head><style>p{}</style></head><body><h2>Chapter One</h2><p>It began.</p></body></html>`,
	}
	writeDoc(t, env, "book.epub", buildZip(t, files))
	want := "# A Small Book\n\n## Chapter One\n\nIt began.\n\n## Chapter Two\n\nThe *end*."
	if got := call(t, env, "book.epub").FirstText(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestReadDocumentFailures(t *testing.T) {
	t.Parallel()
	env := plainEnv(t)
	writeDoc(t, env, "broken.docx", []byte("this is not a zip"))
	writeDoc(t, env, "old.doc", []byte{0xd0, 0xcf, 0x11, 0xe0})
	writeDoc(t, env, "nobody.docx", buildZip(t, map[string]string{"other.xml": "<x/>"}))
	writeDoc(t, env, "badxml.docx", buildZip(t, map[string]string{"word/document.xml": "<w:document><w:body><w:p>"}))
	for name, want := range map[string]string{
		"broken.docx": "[Cannot read .docx file: not a valid .docx file (zip: not a valid zip file)]",
		"old.doc":     "[Cannot read .doc file: the legacy binary Office format is not supported; save it as .docx and read that]",
		"nobody.docx": "[Cannot read .docx file: word/document.xml is missing]",
		"badxml.docx": "[Cannot read .docx file: word/document.xml: XML syntax error on line 1: unexpected EOF]",
	} {
		res := call(t, env, name)
		if res.IsError || res.FirstText() != want {
			t.Errorf("%s: got %q (error %v)\nwant %q", name, res.FirstText(), res.IsError, want)
		}
	}
}

func TestReadDocxZipBomb(t *testing.T) {
	env := plainEnv(t)
	// A member inflating past the cap: stored deflated, a few hundred KiB.
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestCompression) })
	w, _ := zw.Create("word/document.xml")
	w.Write([]byte(`<w:document ` + wordNS + `><w:body><w:p><w:r><w:t>`))
	chunk := bytes.Repeat([]byte("a"), 1<<20)
	for range maxDocumentMember>>20 + 1 {
		w.Write(chunk)
	}
	zw.Close()
	writeDoc(t, env, "bomb.docx", b.Bytes())
	before := totalAlloc()
	got := call(t, env, "bomb.docx").FirstText()
	if got != fmt.Sprintf("[Cannot read .docx file: word/document.xml inflates to more than %d MiB]", maxDocumentMember>>20) {
		t.Fatalf("got %q", got)
	}
	if grew := totalAlloc() - before; grew > 3*maxDocumentMember {
		t.Fatalf("allocated %d MiB", grew>>20)
	}
}

func TestReadLongDocumentIsCut(t *testing.T) {
	t.Parallel()
	env := plainEnv(t)
	var body strings.Builder
	for i := 1; i <= 4000; i++ {
		fmt.Fprintf(&body, `<w:p><w:r><w:t>paragraph %d</w:t></w:r></w:p>`, i)
	}
	writeDoc(t, env, "long.docx", buildZip(t, map[string]string{"word/document.xml": docxXML(body.String())}))
	got := call(t, env, "long.docx").FirstText()
	if !strings.HasSuffix(got, "paragraph 3000\n\n[Showing lines 1-3000 of 4000 of the converted text (3000-line limit). Use :3001 to continue.]") {
		t.Fatalf("got %q", got[len(got)-200:])
	}
	if got := call(t, env, "long.docx:3999").FirstText(); got != "paragraph 3998\nparagraph 3999\nparagraph 4000\n" {
		t.Fatalf("page: %q", got)
	}
}

func TestReadRTF(t *testing.T) {
	t.Parallel()
	env := plainEnv(t)
	rtf := `{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Times;}}{\colortbl;\red0\green0\blue0;}
{\*\generator Writer;}{\info{\title Hidden}}\pard\b Heading\b0\par
caf\'e9 \u8364? price\tab 5\par
{\field{\*\fldinst HYPERLINK "x"}{\fldrslt link text}}\line next\par}`
	writeDoc(t, env, "note.rtf", []byte(rtf))
	want := "Heading\ncafé € price\t5\nlink text\nnext"
	if got := call(t, env, "note.rtf").FirstText(); got != want {
		t.Fatalf("got %q want %q", got, want)
	}
	writeDoc(t, env, "fake.rtf", []byte("plain words"))
	if got := call(t, env, "fake.rtf").FirstText(); got != `[Cannot read .rtf file: not an RTF file (it does not start with "{\rtf")]` {
		t.Fatalf("fake: %q", got)
	}
}

// minimalPDF builds a one-font PDF with one page per entry of pages, each
// a list of lines, with a correct cross-reference table.
func minimalPDF(pages ...[]string) []byte {
	var objs []string
	n := len(pages)
	kids := make([]string, n)
	for i := range pages {
		kids[i] = fmt.Sprintf("%d 0 R", 4+2*i)
	}
	objs = append(objs,
		"<< /Type /Catalog /Pages 2 0 R >>",
		fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	for i, lines := range pages {
		var content strings.Builder
		content.WriteString("BT /F1 12 Tf 72 720 Td 14 TL\n")
		for _, l := range lines {
			words := strings.Fields(l)
			if len(words) == 0 {
				continue
			}
			content.WriteString("(" + words[0] + ") Tj")
			for _, w := range words[1:] {
				content.WriteString(" 40 0 Td (" + w + ") Tj")
			}
			content.WriteString(fmt.Sprintf(" %d 0 Td T*\n", -40*(len(words)-1)))
		}
		content.WriteString("ET")
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", 5+2*i),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", content.Len(), content.String()))
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

// noPDFToText hides pdftotext from env's read tools.
func noPDFToText(env *tool.Env) {
	withCaps(env, func(c *caps) { c.pdftotext = func() (string, error) { return "", os.ErrNotExist } })
}

func TestReadPDF(t *testing.T) {
	t.Parallel()
	env := plainEnv(t)
	noPDFToText(env)
	writeDoc(t, env, "two.pdf", minimalPDF([]string{"Hello PDF world", "second line"}, []string{"Page two"}))
	want := "--- Page 1 ---\nHello PDF world\nsecond line\n\n--- Page 2 ---\nPage two"
	if got := call(t, env, "two.pdf").FirstText(); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	writeDoc(t, env, "bad.pdf", []byte("%PDF-1.4\nnot really"))
	got := call(t, env, "bad.pdf").FirstText()
	if !strings.HasPrefix(got, "[Cannot read .pdf file: the PDF could not be parsed (") ||
		!strings.HasSuffix(got, "), and pdftotext (Debian package poppler-utils) is not installed to try instead]") {
		t.Fatalf("bad pdf: %q", got)
	}
	writeDoc(t, env, "blank.pdf", minimalPDF([]string{" "}))
	if got := call(t, env, "blank.pdf").FirstText(); got != "[Cannot read .pdf file: no text found; the pages may be scanned images, and pdftotext (Debian package poppler-utils) is not installed to try instead]" {
		t.Fatalf("blank pdf: %q", got)
	}
}

func TestReadPDFWithPDFToText(t *testing.T) {
	t.Parallel()
	bin, err := defaultCaps().pdftotext()
	if err != nil {
		t.Skip("pdftotext is not installed")
	}
	text, err := runPDFToText(context.Background(), bin, bytes.NewReader(minimalPDF([]string{"Hello there"})), 0, "")
	_ = text
	if err == nil { // an empty reader is not a PDF
		t.Fatal("pdftotext accepted an empty file")
	}
	pdf := minimalPDF([]string{"Hello there"})
	text, err = runPDFToText(context.Background(), bin, bytes.NewReader(pdf), int64(len(pdf)), "")
	if err != nil || !strings.Contains(text, "Hello") {
		t.Fatalf("pdftotext: %q %v", text, err)
	}
}
