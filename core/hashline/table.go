package hashline

// BigramCount is the number of two-letter hashes: omp's table, the 647 of
// the 676 lowercase pairs that it keeps (see Bigrams).
const BigramCount = 647

// bigramPairs is omp 14.9.9's anchor alphabet laid end to end, two letters
// per entry, in table order (which is also alphabetical). One line per
// first letter; the 29 pairs missing are rare-letter combinations, mostly
// with q, x, z, j, k, v and w.
const bigramPairs = "" +
	"aaabacadaeafagahaiajakalamanaoapaqarasatauavawaxayaz" +
	"babbbcbdbebfbgbhbibjbkblbmbnbobpbrbsbtbubvbwbxbybz" +
	"cacbcccdcecfcgchcicjckclcmcncocpcqcrcsctcucvcwcxcycz" +
	"dadbdcdddedfdgdhdidjdkdldmdndodpdqdrdsdtdudvdwdxdydz" +
	"eaebecedeeefegeheiejekelemeneoepeqereseteuevewexeyez" +
	"fafbfcfdfefffgfhfifjfkflfmfnfofpfqfrfsftfufvfwfxfyfz" +
	"gagbgcgdgegfggghgigjglgmgngogpgrgsgtgugvgwgxgygz" +
	"hahbhchdhehfhghhhihjhkhlhmhnhohphqhrhshthuhvhwhxhyhz" +
	"iaibicidieifigihiiijikiliminioipiqirisitiuiviwixiyiz" +
	"jajbjcjdjejfjgjhjijjjkjljmjnjojpjqjrjsjtjujwjxjy" +
	"kakbkckdkekfkgkhkikjkkklkmknkokpkrksktkukvkwkxky" +
	"lalblcldlelflglhliljlklllmlnlolplrlsltlulvlwlxlylz" +
	"mambmcmdmemfmgmhmimjmkmlmmmnmompmqmrmsmtmumvmwmxmymz" +
	"nanbncndnenfngnhninjnknlnmnnnonpnrnsntnunvnwnxnynz" +
	"oaobocodoeofogohoiojokolomonooopoqorosotouovowoxoyoz" +
	"papbpcpdpepfpgphpipjpkplpmpnpopppqprpsptpupvpwpxpypz" +
	"qaqbqcqdqeqhqiqlqmqnqoqpqqqrqsqtquqwqxqy" +
	"rarbrcrdrerfrgrhrirkrlrmrnrorprqrrrsrtrurvrwrxryrz" +
	"sasbscsdsesfsgshsisjskslsmsnsospsqsrssstsusvswsxsysz" +
	"tatbtctdtetftgthtitjtktltmtntotptrtstttutvtwtxtytz" +
	"uaubucudueufuguhuiujukulumunuoupuqurusutuuuvuwuxuyuz" +
	"vavbvcvdvevfvgvhvivjvkvlvmvnvovpvqvrvsvtvuvvvwvxvyvz" +
	"wawbwcwdwewfwgwhwiwjwkwlwmwnwowpwrwswtwuwvwwwxwy" +
	"xaxbxcxdxexfxhxixlxmxnxoxpxrxsxtxuxxxyxz" +
	"yaybycydyeyfygyhyiyjykylymynyoypyrysytyuyvywyxyyyz" +
	"zazbzczdzezfzgzhzizkzlzmznzozpzrzsztzuzwzxzyzz"

// bigrams is the anchor alphabet by hash index.
var bigrams = buildBigrams()

// Bigrams returns the 647 anchor hashes in table order: a line whose hash
// value is h shows Bigrams()[h mod 647].
//
// The table is omp's, entry for entry, so a line carries the same anchor in
// gopi as in omp and a session can move between the two agents. It is
// locked by TestBigramTableGolden (testdata/bigrams.golden) and by
// TestBigramTableIsOmps (testdata/omp-bigrams.json): never edit it.
func Bigrams() []string { return append([]string(nil), bigrams[:]...) }

// bigramIndex maps a pair (first-'a')*26+(second-'a') to its index in
// bigrams, or -1 for a pair outside the table.
var bigramIndex = buildBigramIndex()

// IsBigram reports whether s is one of the 647 anchor hashes.
func IsBigram(s string) bool {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'z' || s[1] < 'a' || s[1] > 'z' {
		return false
	}
	return bigramIndex[int(s[0]-'a')*26+int(s[1]-'a')] >= 0
}

// buildBigrams slices bigramPairs into its entries (no allocation).
func buildBigrams() [BigramCount]string {
	if len(bigramPairs) != 2*BigramCount {
		panic("hashline: bigram table does not hold 647 pairs")
	}
	var t [BigramCount]string
	for i := range t {
		t[i] = bigramPairs[2*i : 2*i+2]
	}
	return t
}

func buildBigramIndex() [676]int16 {
	var idx [676]int16
	for i := range idx {
		idx[i] = -1
	}
	for i, s := range bigrams {
		idx[int(s[0]-'a')*26+int(s[1]-'a')] = int16(i)
	}
	return idx
}
