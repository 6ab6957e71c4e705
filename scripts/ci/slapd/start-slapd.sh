#!/usr/bin/env bash
# Starts a private OpenLDAP server for the LDAP tests (server/features/auth/ldap.test.ts): its own
# configuration, database and certificate under $SLAPD_DIR (default /tmp/qr-creator-slapd), listening on
# ldap://127.0.0.1:3389 (StartTLS too) and ldaps://127.0.0.1:3636, loaded with directory.ldif. The
# system's slapd (port 389), if the package started one, is left alone.
#
# Already running with this script's test directory: exits 0 at once. Otherwise (not running, not
# answering, or started from an older directory.ldif) starts afresh, the directory reloaded. Prints the variables the tests read, e.g.
#   eval "$(scripts/ci/slapd/start-slapd.sh)"
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
dir="${SLAPD_DIR:-/tmp/qr-creator-slapd}"
host=127.0.0.1
ldap_url="ldap://$host:3389"
ldaps_url="ldaps://$host:3636"
suffix="dc=example,dc=org"
admin_dn="cn=admin,$suffix"
admin_password="admin-secret"
service_dn="cn=qr-creator,ou=services,$suffix"
service_password="service-secret"

slapd=$(command -v slapd || echo /usr/sbin/slapd)
[ -x "$slapd" ] || { echo "start-slapd: slapd is not installed (apt-get install slapd ldap-utils)" >&2; exit 1; }
command -v ldapadd >/dev/null || { echo "start-slapd: ldap-utils is not installed" >&2; exit 1; }
command -v openssl >/dev/null || { echo "start-slapd: openssl is not installed" >&2; exit 1; }

print_env() {
  echo "export TEST_LDAP_URL=$ldap_url"
  echo "export TEST_LDAPS_URL=$ldaps_url"
  echo "export TEST_LDAP_CA=$dir/tls/ca.pem"
}

# The service account binding is the proof that this is our directory, loaded, and answering.
answers() {
  ldapwhoami -x -o nettimeout=2 -H "$ldap_url" -D "$service_dn" -w "$service_password" >/dev/null 2>&1
}
fixture=$(cat "$0" "$here/directory.ldif" "$here/ad-account.ldif" | sha256sum | cut -c1-16)

if answers && [ -f "$dir/tls/ca.pem" ] && [ "$(cat "$dir/fixture" 2>/dev/null)" = "$fixture" ]; then
  echo "start-slapd: already running ($dir)" >&2
  print_env
  exit 0
fi

# A slapd of ours that no longer answers (or answers with another directory): stop it, start afresh.
if [ -f "$dir/slapd.pid" ]; then
  pid=$(cat "$dir/slapd.pid")
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
fi
rm -rf "$dir"
mkdir -p "$dir/slapd.d" "$dir/data" "$dir/tls"
chmod 700 "$dir"

# A self-signed certificate for 127.0.0.1 and localhost, new at every start: the tests trust it as the
# CA (TEST_LDAP_CA), as an administrator gives ldap.tlsCaFile the company CA.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 30 \
  -subj "/CN=$host" -addext "subjectAltName=IP:$host,DNS:localhost" \
  -keyout "$dir/tls/key.pem" -out "$dir/tls/ca.pem" 2>/dev/null

schema() { sed -n '/^dn:/,$p' "$1"; echo; }
{
  cat <<EOF
dn: cn=config
objectClass: olcGlobal
cn: config
olcPidFile: $dir/slapd.pid
olcArgsFile: $dir/slapd.args
olcTLSCertificateFile: $dir/tls/ca.pem
olcTLSCertificateKeyFile: $dir/tls/key.pem
olcTLSCACertificateFile: $dir/tls/ca.pem
# A name with an empty password binds as nobody and succeeds, as in directories set up that way: the
# tests prove QR Creator never takes that for a signed-in person.
olcAllows: bind_anon_dn

dn: cn=module{0},cn=config
objectClass: olcModuleList
cn: module{0}
olcModulePath: /usr/lib/ldap
olcModuleLoad: back_mdb
olcModuleLoad: memberof

dn: cn=schema,cn=config
objectClass: olcSchemaConfig
cn: schema

EOF
  for s in core cosine inetorgperson; do schema "/etc/ldap/schema/$s.ldif"; done
  schema "$here/ad-account.ldif"
  cat <<EOF
dn: olcDatabase={-1}frontend,cn=config
objectClass: olcDatabaseConfig
objectClass: olcFrontendConfig
olcDatabase: {-1}frontend

dn: olcDatabase={0}config,cn=config
objectClass: olcDatabaseConfig
olcDatabase: {0}config
olcAccess: {0}to * by * none

dn: olcDatabase={1}mdb,cn=config
objectClass: olcDatabaseConfig
objectClass: olcMdbConfig
olcDatabase: {1}mdb
olcSuffix: $suffix
olcRootDN: $admin_dn
olcRootPW: $admin_password
olcDbDirectory: $dir/data
olcDbMaxSize: 67108864
olcDbIndex: objectClass eq
olcDbIndex: uid,member eq
olcAccess: {0}to attrs=userPassword by self write by anonymous auth by * none
olcAccess: {1}to * by dn.exact="$service_dn" read by self read by * none

dn: olcOverlay={0}memberof,olcDatabase={1}mdb,cn=config
objectClass: olcOverlayConfig
objectClass: olcMemberOf
olcOverlay: {0}memberof
olcMemberOfRefInt: TRUE
olcMemberOfGroupOC: groupOfNames
olcMemberOfMemberAD: member
olcMemberOfMemberOfAD: memberOf
EOF
} >"$dir/config.ldif"

slapadd -n 0 -F "$dir/slapd.d" -l "$dir/config.ldif" >"$dir/slapadd.log" 2>&1 ||
  { cat "$dir/slapadd.log" >&2; echo "start-slapd: the configuration was refused" >&2; exit 1; }

"$slapd" -F "$dir/slapd.d" -h "$ldap_url/ $ldaps_url/" ||
  { echo "start-slapd: slapd did not start (run: $slapd -F $dir/slapd.d -h \"$ldap_url/\" -d 1)" >&2; exit 1; }

for _ in $(seq 100); do
  ldapwhoami -x -o nettimeout=1 -H "$ldap_url" -D "$admin_dn" -w "$admin_password" >/dev/null 2>&1 && break
  sleep 0.1
done
ldapadd -x -H "$ldap_url" -D "$admin_dn" -w "$admin_password" -f "$here/directory.ldif" >"$dir/ldapadd.log" 2>&1 ||
  { cat "$dir/ldapadd.log" >&2; echo "start-slapd: the test directory was not loaded" >&2; exit 1; }
answers || { echo "start-slapd: slapd started but the service account cannot bind" >&2; exit 1; }
echo "$fixture" >"$dir/fixture"

echo "start-slapd: running, pid $(cat "$dir/slapd.pid"), in $dir" >&2
print_env
