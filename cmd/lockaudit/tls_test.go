package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/report"
)

// selfSigned makes a certificate for 127.0.0.1 signed by nobody anyone
// trusts, and writes it (PEM) to dir/ca.pem.
func selfSigned(t *testing.T, dir string) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "lockaudit test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "ca.pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// tlsListener accepts TLS with cert and completes handshakes (then says
// nothing: only the handshake matters here).
func tlsListener(t *testing.T, cert tls.Certificate) string {
	t.Helper()
	l, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				c.(*tls.Conn).Handshake()
				time.Sleep(3 * time.Second)
				c.Close()
			}()
		}
	}()
	return l.Addr().String()
}

// TestTLSVerifiedByDefault: what `help probe` and docs/secrets.md say is what
// the code does — with -tls alone, a certificate no trusted CA signed is
// refused (the node is unreachable, and the reason is the certificate);
// given that certificate as -tls-ca, the handshake passes.
func TestTLSVerifiedByDefault(t *testing.T) {
	dir := t.TempDir()
	addr := tlsListener(t, selfSigned(t, dir))
	_, stderr, code := runIn(t, dir, nil, "probe", "-tls", "-timeout", "2s", addr)
	if code != report.ExitFailed || !strings.Contains(stderr, "certificate") {
		t.Errorf("-tls against an untrusted certificate: exit %d, %s; want 1 and a certificate error", code, stderr)
	}
	_, stderr, _ = runIn(t, dir, nil, "probe", "-tls-ca", "ca.pem", "-timeout", "1s", addr)
	if strings.Contains(stderr, "certificate") {
		t.Errorf("-tls-ca with the server's own CA still refuses the certificate: %s", stderr)
	}
	help, _, _ := runIn(t, dir, nil, "help", "probe")
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs", "secrets.md"))
	if err != nil {
		t.Fatal(err)
	}
	const promise = "There is no switch to turn verification off"
	if !strings.Contains(strings.Join(strings.Fields(help), " "), promise) || !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), promise) {
		t.Errorf("help probe and docs/secrets.md must both say %q", promise)
	}
	if strings.Contains(help, "unless") {
		t.Errorf("help probe makes verification conditional:\n%s", help)
	}
}

// TestTLSAndPasswordPathsFollowC: audit's relative -tls-ca and
// -password-file are read from -C, like its other paths; probe's from the
// working directory (not the process's).
func TestTLSAndPasswordPathsFollowC(t *testing.T) {
	mod := writeModule(t, map[string]string{"go.mod": "module example.com/clean\n\ngo 1.22\n", "clean.go": "package clean\n\nfunc F() {}\n"})
	selfSigned(t, mod)
	os.WriteFile(filepath.Join(mod, "pw"), []byte("x\n"), 0o600)
	elsewhere := t.TempDir()
	for _, args := range [][]string{
		{"audit", "-C", mod, "-tls-ca", "ca.pem", "-password-file", "pw", "-timeout", "1s", "-addr", "127.0.0.1:1"},
		{"probe", "-tls-ca", filepath.Join("..", filepath.Base(mod), "ca.pem"), "-timeout", "1s", "127.0.0.1:1"},
	} {
		dir := elsewhere
		if args[0] == "probe" {
			dir = filepath.Join(filepath.Dir(mod), "sub")
			os.MkdirAll(dir, 0o755)
		}
		_, stderr, code := runIn(t, dir, nil, args...)
		if code != report.ExitFailed || strings.Contains(stderr, "-tls-ca") || strings.Contains(stderr, "-password-file") {
			t.Errorf("%q: exit %d, %s; want 1 (the node is unreachable), the files found", args, code, stderr)
		}
	}
	// Not found relative to the working directory: a usage error naming it.
	_, stderr, code := runIn(t, elsewhere, nil, "probe", "-tls-ca", "ca.pem", "127.0.0.1:1")
	if code != report.ExitUsage || !strings.Contains(stderr, "-tls-ca") {
		t.Errorf("probe -tls-ca of a missing file: exit %d, %s", code, stderr)
	}
}
