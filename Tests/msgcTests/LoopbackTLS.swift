import Foundation

/// A self-signed certificate for 127.0.0.1 and its key (PEM, made by Python's cryptography in
/// the tests' venv), for `realtime serve --tls-certificate`: Apple calls only https URLs.
enum LoopbackTLS {
    static func make(in folder: URL) throws -> (certificate: String, key: String) {
        let certificate = folder.appendingPathComponent("tls.pem").path
        let key = folder.appendingPathComponent("tls-key.pem").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: StandIn.python!)
        process.arguments = ["-c", """
            import datetime, ipaddress, sys
            from cryptography import x509
            from cryptography.hazmat.primitives import hashes, serialization
            from cryptography.hazmat.primitives.asymmetric import ec
            from cryptography.x509.oid import NameOID
            key = ec.generate_private_key(ec.SECP256R1())
            name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
            now = datetime.datetime.now(datetime.timezone.utc)
            cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
                .not_valid_after(now + datetime.timedelta(days=1))
                .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
                .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                .sign(key, hashes.SHA256()))
            open(sys.argv[1], "wb").write(cert.public_bytes(serialization.Encoding.PEM))
            open(sys.argv[2], "wb").write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
            """, certificate, key]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ServeProcess.Failure(description: "could not make a TLS certificate") }
        return (certificate, key)
    }
}
